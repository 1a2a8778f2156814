# Imports by resource identity (Terraform only): one that then changes, one that does not.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

import {
  to = tfwire_thing.changed
  identity = {
    name = "n1"
    zone = "z1"
  }
}

resource "tfwire_thing" "changed" {
  name  = "n1"
  value = "v2"
}

import {
  to = tfwire_thing.same
  identity = {
    name = "n2"
  }
}

resource "tfwire_thing" "same" {
  name  = "n2"
  value = "w"
}
