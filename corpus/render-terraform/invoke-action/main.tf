# An action invoked from the command line (`terraform plan -invoke=...`, Terraform only): the plan
# changes nothing and draws the invocation in a section of its own.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

action "tfwire_write" "note" {
  config {
    path = "note.txt"
    text = "hello"
    header {
      title = "T"
    }
  }
}
