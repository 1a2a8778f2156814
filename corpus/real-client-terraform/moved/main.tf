# moved blocks: a rename, count to for_each keys, and a resource moved out of a module.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

moved {
  from = tfwire_item.old
  to   = tfwire_item.new
}

resource "tfwire_item" "new" {
  name = "moving"
}

moved {
  from = tfwire_item.many[0]
  to   = tfwire_item.keyed["m0"]
}

moved {
  from = tfwire_item.many[1]
  to   = tfwire_item.keyed["m1"]
}

resource "tfwire_item" "keyed" {
  for_each = toset(["m0", "m1"])
  name     = each.key
}

moved {
  from = module.inner.tfwire_item.in_module
  to   = tfwire_item.from_module
}

resource "tfwire_item" "from_module" {
  name = "in-module"
}
