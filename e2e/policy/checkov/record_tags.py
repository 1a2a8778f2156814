"""CKV_TFW_3: every tfwire_record has tags (planned_values)."""

from checkov.common.models.enums import CheckCategories, CheckResult
from checkov.terraform.checks.resource.base_resource_check import BaseResourceCheck


class RecordTags(BaseResourceCheck):
    def __init__(self):
        super().__init__(
            name="tfwire_record objects are tagged",
            id="CKV_TFW_3",
            categories=[CheckCategories.CONVENTION],
            supported_resources=["tfwire_record"],
        )

    def scan_resource_conf(self, conf):
        tags = conf.get("tags")
        return CheckResult.PASSED if tags and tags[0] else CheckResult.FAILED


check = RecordTags()
