# Step 1: the same configuration, applied (d created; no trigger fires on create).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

action "tfwire_write" "goodbye" {
  config {
    path = "out/goodbye-${caller.name}.txt"
    text = "destroying ${caller.id}"
    meta = { event = "before_destroy" }
  }
}

action "tfwire_write" "broken" {
  config {
    path = "out/goodbye-${caller.name}.txt/cannot-be-a-directory.txt"
    text = "never written"
  }
}

resource "tfwire_item" "d" {
  name  = "d"
  value = "doomed"
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.tfwire_write.goodbye]
    }
    action_trigger {
      events     = [after_destroy]
      actions    = [action.tfwire_write.broken]
      on_failure = continue
    }
  }
}
