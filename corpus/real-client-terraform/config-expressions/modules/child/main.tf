terraform {
  required_providers {
    tfwire = {
      source                = "tfwire/tfwire"
      configuration_aliases = [tfwire.other]
    }
  }
}
variable "label" {
  type = string
}
variable "opt" {
  type    = number
  default = 5
}
resource "tfwire_item" "in_child" {
  name  = var.label
  value = tostring(var.opt)
}
resource "tfwire_item" "other" {
  provider = tfwire.other
  name     = "other"
}
module "grand" {
  source = "../grand"
}
output "out" {
  value = tfwire_item.in_child.id
}
