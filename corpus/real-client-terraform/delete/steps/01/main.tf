terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "keep" {
  name = "keep"
}

resource "tfwire_item" "gone" {
  count = 3
  name  = "gone-${count.index}"
  index = count.index
}

resource "tfwire_shapes" "gone" {
  name       = "gone"
  set_value  = [1, 2]
  secret_map = { a = "b" }
}
