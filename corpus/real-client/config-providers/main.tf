terraform {
  required_providers {
    tfwire = {
      source  = "tfwire/tfwire"
      version = "!= 0.9.0, >= 1.0.0, ~> 1.0"
    }
  }
}

variable "regions" {
  type    = set(string)
  default = ["a", "b"]
}

provider "tfwire" {
  alias    = "each"
  for_each = var.regions
  label    = each.key
}

resource "tfwire_item" "per" {
  for_each = var.regions
  provider = tfwire.each[each.key]
  name     = each.key
}

resource "local_file" "implied" {
  filename = "/tmp/cfgp/never"
  content  = "x"
}

module "child" {
  source = "./child"
  providers = {
    tfwire = tfwire.each["a"]
  }
}
