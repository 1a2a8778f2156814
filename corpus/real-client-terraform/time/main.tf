# HashiCorp's time provider (protocol 5, framework), with fixed timestamps so the results do not depend on the
# clock.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
    time   = { source = "hashicorp/time" }
    local  = { source = "hashicorp/local" }
  }
}

resource "time_static" "fixed" {
  rfc3339 = "2024-02-29T12:34:56Z"
  triggers = { reason = "fixed" }
}

resource "time_offset" "later" {
  base_rfc3339  = time_static.fixed.rfc3339
  offset_days   = 1
  offset_hours  = -2
  offset_months = 11
}

resource "time_rotating" "r" {
  rfc3339        = "2024-01-01T00:00:00Z"
  rotation_years = 100
}

output "offset" {
  value = time_offset.later.rfc3339
}
