terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

module "inner" {
  source   = "../leaf"
  for_each = toset(["x"])
  name     = "outer-inner"
}
