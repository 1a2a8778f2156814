# Resource identity: alpha and beta imported by identity (zone left out for alpha: optional for import), beta
# updated on import; gamma (made by step 2, identity in the prior state) updated in place; delta created (its
# identity known only after apply).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

import {
  to       = tfwire_thing.alpha
  identity = { name = "alpha" }
}

import {
  to = tfwire_thing.beta
  identity = {
    name = "beta"
    zone = "z2"
  }
}

resource "tfwire_thing" "alpha" {
  name   = "alpha"
  value  = "made outside"
  labels = { origin = "shell" }
}

resource "tfwire_thing" "beta" {
  name  = "beta"
  zone  = "z2"
  value = "beta managed"
}

resource "tfwire_thing" "gamma" {
  name  = "gamma"
  value = "second"
}

resource "tfwire_thing" "delta" {
  name   = "delta"
  zone   = "z3"
  labels = { made = "by terraform" }
}
