# Actions on destroy (before_destroy and after_destroy events, new in Terraform 1.16) in a plan -destroy, and the
# on_failure modes: "continue" for an action that fails (it writes under a path that is a file), so the destroy
# goes on. Action configurations refer to the triggering resource as `caller`. The action that succeeds writes
# out/ (collected into files/).
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
