# An import block for the builtin provider's terraform_data.
import {
  to = terraform_data.imported
  id = "7c1a2b3c-0000-4000-8000-000000000001"
}

resource "terraform_data" "imported" {
}
