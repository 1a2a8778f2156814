# A failing apply: one resource's create fails (its partial object is saved tainted), one depending on it is
# never created, an independent one is created.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "fails" {
  name          = "fails"
  fail_on_apply = true
}

resource "tfwire_item" "depends" {
  name  = "after-${tfwire_shapes.fails.id}"
}

resource "tfwire_item" "independent" {
  name = "independent"
}
