terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

action "tfwire_write" "note" {
  config {
    path = "notes/created.txt"
    text = "created"
  }
}

action "tfwire_write" "manual" {
  config {
    path = "notes/manual.txt"
    text = "by hand"
  }
}

import {
  to = tfwire_thing.orphan
  identity = {
    name = "orphan"
    zone = "z1"
  }
}

resource "tfwire_thing" "orphan" {
  name  = "orphan"
  value = "second"
}

resource "tfwire_thing" "fresh" {
  name = "fresh"
  lifecycle {
    action_trigger {
      events  = [before_create, after_create]
      actions = [action.tfwire_write.note]
    }
  }
}
