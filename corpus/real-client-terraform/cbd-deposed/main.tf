# create_before_destroy with a deposed object: steps/01 creates generation 1 (which refuses to be destroyed),
# steps/02 replaces it, creating generation 2 first, and the destroy of generation 1 fails, leaving it deposed in
# the state. The captured plan replaces generation 2 again and deletes the deposed object (not applied: the
# deposed object still refuses).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "cbd" {
  name            = "generation-3"
  fail_on_destroy = false
  lifecycle {
    create_before_destroy = true
  }
}
