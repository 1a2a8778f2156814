terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

variable "name" {
  type = string
}

resource "tfwire_item" "x" {
  name = var.name
}
