terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 1
}

resource "tfwire_item" "in_box" {
  name  = var.name
  index = var.size
}

module "leaf" {
  source = "./modules/leaf"
  count  = var.size > 1 ? 1 : 0
  label  = "${var.name}-leaf"
}

output "id" {
  value = tfwire_item.in_box.id
}
