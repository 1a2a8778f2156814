terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

variable "label" {
  type = string
}

resource "tfwire_shapes" "leaf" {
  name          = var.label
  list_nested   = [{ key = var.label }]
  dynamic_value = var.label
}

output "leaf_id" {
  value = tfwire_shapes.leaf.id
}
