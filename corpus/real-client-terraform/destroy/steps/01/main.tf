# A destroy plan (-destroy) of everything steps/01 created.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "d" {
  name         = "destroyed"
  list_nested  = [{ key = "a" }]
  number_value = 1e-10
}

resource "tfwire_item" "d" {
  for_each = toset(["x", "y"])
  name     = each.key
}
