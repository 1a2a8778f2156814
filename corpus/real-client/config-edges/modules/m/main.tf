terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire", version = ">= 0.1" }
  }
}
variable "in" {
  type    = any
  default = null
}
resource "tfwire_item" "i" {
  name = "m"
}
output "out" {
  value     = tfwire_item.i.name
  sensitive = false
}
