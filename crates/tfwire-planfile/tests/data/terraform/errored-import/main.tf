import {
  to       = terraform_data.by_identity
  identity = { id = "tfwire-identity" }
}

import {
  to = terraform_data.by_id
  id = "tfwire-id"
}

resource "terraform_data" "by_identity" {}

resource "terraform_data" "by_id" {}
