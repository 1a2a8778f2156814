# An ephemeral resource (tfwire_token): its value feeds a write-only attribute and an aliased provider's
# configuration, and appears in no plan or state.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

ephemeral "tfwire_token" "t" {
  name   = "deploy"
  scopes = ["read", "write"]
}

provider "tfwire" {
  alias  = "with_token"
  secret = ephemeral.tfwire_token.t.value
  label  = "token of length ${ephemeral.tfwire_token.t.length}"
}

resource "tfwire_shapes" "e" {
  provider    = tfwire.with_token
  name        = "ephemeral"
  password_wo = ephemeral.tfwire_token.t.value
}
