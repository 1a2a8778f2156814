terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "forget_me" {
  name = "forgotten"
}

resource "tfwire_item" "forget_all" {
  count = 2
  name  = "all-${count.index}"
}

resource "tfwire_item" "stay" {
  name = "stay"
}
