# Step 1: a and b, both with lifecycle { destroy = false }; after.sh taints a with the client's taint command.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "a" {
  name  = "a"
  value = "kept"
  lifecycle {
    destroy = false
  }
}

resource "tfwire_item" "b" {
  name  = "b"
  value = "kept"
  lifecycle {
    destroy = false
  }
}
