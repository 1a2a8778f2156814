terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "cbd" {
  name            = "generation-1"
  fail_on_destroy = true
  lifecycle {
    create_before_destroy = true
  }
}
