# Step 2: gamma created the ordinary way, so the last step plans an update of an object whose identity is in the
# prior state.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_thing" "gamma" {
  name  = "gamma"
  value = "first"
}
