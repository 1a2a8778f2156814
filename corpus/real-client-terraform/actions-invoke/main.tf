# An action invoked on its own: step 2 runs apply -invoke=action.tfwire_write.early (out/early.txt); the
# captured step plans -invoke=action.tfwire_write.report (a plan that only invokes the action) and applies the
# planfile (out/report.txt). Both files are collected into files/.
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
