# e2e/tap.sh's leak check: a distinct string in every attribute the tfwire provider's schema marks sensitive or
# write-only (and the value of the ephemeral resource below), and nowhere else. None of them may appear in the
# tap's log.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

provider "tfwire" {
  secret = "tap-leak-provider-secret"
}

resource "tfwire_shapes" "s" {
  name        = "secrets"
  secret      = "tap-leak-resource-secret"
  secret_map  = { one = "tap-leak-map-value" }
  password_wo = "tap-leak-write-only"
}

data "tfwire_echo" "e" {
  secret = "tap-leak-data-secret"
  input  = { plain = "visible" }
}

# The ephemeral resource's value (sensitive): "tok-" and the provider's digest of name and scopes, computed by
# tap.sh; it reaches the provider again in a write-only attribute.
ephemeral "tfwire_token" "leak" {
  name   = "tap-leak-token"
  scopes = ["leak"]
}

resource "tfwire_shapes" "t" {
  name        = "token"
  password_wo = ephemeral.tfwire_token.leak.value
}
