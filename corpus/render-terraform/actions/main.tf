# Actions a resource's lifecycle triggers before and after its creation (Terraform only): their
# configurations (lists, maps, a nested block, a sensitive and an unknown value) drawn under the change.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

action "tfwire_write" "note" {
  config {
    path  = "note.txt"
    text  = "hello"
    lines = ["a", "b"]
    meta  = { k = "v" }
    token = sensitive("secret")
    header {
      title = "T"
      level = 2
    }
  }
}

action "tfwire_write" "plain" {
  config {
    path = "plain.txt"
    text = terraform_data.trigger.id
  }
}

resource "terraform_data" "trigger" {
  input = "x"
  lifecycle {
    action_trigger {
      events  = [before_create, after_create]
      actions = [action.tfwire_write.note, action.tfwire_write.plain]
    }
  }
}

resource "terraform_data" "other" {
  input = "y"
}
