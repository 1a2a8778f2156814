"""CKV_TFW_2: a tfwire_item's name is derived (count.index, each.key or another object), not a literal or a bare
variable: checkov reads that from the expressions' references of the plan's `configuration`."""

from checkov.common.models.enums import CheckCategories, CheckResult
from checkov.terraform.checks.resource.base_resource_check import BaseResourceCheck


class DerivedNames(BaseResourceCheck):
    def __init__(self):
        super().__init__(
            name="tfwire_item names are derived from references",
            id="CKV_TFW_2",
            categories=[CheckCategories.CONVENTION],
            supported_resources=["tfwire_item"],
        )

    def scan_resource_conf(self, conf):
        references = [r for refs in conf.get("references_") or [] for r in refs]
        return CheckResult.PASSED if references else CheckResult.FAILED


check = DerivedNames()
