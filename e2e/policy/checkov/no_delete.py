"""CKV_TFW_1: no object of the plan is deleted or replaced (resource_changes actions, as checkov attaches them)."""

from checkov.common.models.enums import CheckCategories, CheckResult
from checkov.terraform.checks.resource.base_resource_check import BaseResourceCheck


class NoDelete(BaseResourceCheck):
    def __init__(self):
        super().__init__(
            name="No object is deleted or replaced",
            id="CKV_TFW_1",
            categories=[CheckCategories.GENERAL_SECURITY],
            supported_resources=["tfwire_*", "local_file"],
        )

    def scan_resource_conf(self, conf):
        actions = conf.get("__change_actions__") or []
        return CheckResult.FAILED if "delete" in actions else CheckResult.PASSED


check = NoDelete()
