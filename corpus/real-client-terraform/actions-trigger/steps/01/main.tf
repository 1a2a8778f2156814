# Step 1: b exists before the captured step, which updates it.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "b" {
  name  = "b"
  value = "one"
}
