terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

variable "path" {
  type = string
}

import {
  to = tfwire_record.r
  id = var.path
}

resource "tfwire_record" "r" {
  path  = var.path
  value = "made outside, then managed"
  tags  = { origin = "shell" }
}

output "value" {
  value = tfwire_record.r.value
}
