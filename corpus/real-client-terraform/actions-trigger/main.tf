# Actions triggered from resources' lifecycle (action_trigger): a created with an after_create trigger whose
# action configuration holds a value known only after apply; b updated with before_update and after_update
# triggers, one behind a condition that holds and one behind a condition that does not. The action writes files
# under out/ (collected into files/).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

action "tfwire_write" "created" {
  config {
    path   = "out/created.txt"
    text   = "created ${tfwire_item.a.id}"
    repeat = 2
    upper  = true
    ratio  = 0.125
    lines  = ["x", "y"]
    meta   = { by = "trigger", item = "a" }
    header {
      title = "after_create"
      level = 2
    }
  }
}

action "tfwire_write" "updated" {
  config {
    path  = "out/updated-${tfwire_item.b.name}.txt"
    text  = "b is now ${tfwire_item.b.value}"
    lines = []
  }
}

action "tfwire_write" "never" {
  config {
    path = "out/never.txt"
    text = "the condition was false"
  }
}

resource "tfwire_item" "a" {
  name  = "a"
  value = "new"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.tfwire_write.created]
    }
  }
}

resource "tfwire_item" "b" {
  name  = "b"
  value = "two"
  lifecycle {
    action_trigger {
      events    = [before_update, after_update]
      condition = self.value == "two"
      actions   = [action.tfwire_write.updated]
    }
    action_trigger {
      events    = [after_update]
      condition = self.value == "three"
      actions   = [action.tfwire_write.never]
    }
  }
}
