# Delete: resources of steps/01 dropped from the configuration (and a count lowered).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "keep" {
  name = "keep"
}

resource "tfwire_item" "gone" {
  count = 1
  name  = "gone-${count.index}"
  index = count.index
}
