# lifecycle { destroy = false } on replaced resources: a (tainted by step 1) is replaced by create-then-forget
# (the old object left alone, only forgotten); b's name changes, which requires replacement.
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
  name  = "b2"
  value = "kept"
  lifecycle {
    destroy = false
  }
}
