# Step 1: the configuration of the captured step, applied (no action runs: nothing triggers it).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

action "tfwire_write" "report" {
  config {
    path  = "out/report.txt"
    text  = "report of ${tfwire_item.r.id}"
    ratio = 1e-3
    meta  = { mode = "invoke" }
    header {
      title = "invoked"
    }
  }
}

resource "tfwire_item" "r" {
  name  = "r"
  value = "reported"
}

action "tfwire_write" "early" {
  config {
    path   = "out/early.txt"
    text   = "invoked by apply -invoke"
    repeat = 3
  }
}
