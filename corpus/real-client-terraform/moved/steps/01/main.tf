terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "old" {
  name = "moving"
}

resource "tfwire_item" "many" {
  count = 2
  name  = "m${count.index}"
}

module "inner" {
  source = "./modules/inner"
}
