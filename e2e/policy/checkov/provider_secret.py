"""CKV_TFW_4: the tfwire provider's `secret` is not a literal (configuration.provider_config: checkov keeps only
constant values there)."""

from checkov.common.models.enums import CheckCategories, CheckResult
from checkov.terraform.checks.provider.base_check import BaseProviderCheck


class ProviderSecret(BaseProviderCheck):
    def __init__(self):
        super().__init__(
            name="The tfwire provider's secret is not a literal",
            id="CKV_TFW_4",
            categories=[CheckCategories.SECRETS],
            supported_provider=["tfwire"],
        )

    def scan_provider_conf(self, conf):
        return CheckResult.FAILED if conf.get("secret") else CheckResult.PASSED


check = ProviderSecret()
