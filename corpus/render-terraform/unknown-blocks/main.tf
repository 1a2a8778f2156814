# Groups of nested blocks that become wholly unknown (dynamic blocks over a value known only
# after apply): Terraform draws one `(known after apply)` line, then the prior blocks removed.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "terraform_data" "src" {
  input = ["k3"]
}

resource "tfwire_blocks" "u" {
  name = "u"
  dynamic "listed" {
    for_each = terraform_data.src.output
    content {
      name = listed.value
    }
  }
  dynamic "setof" {
    for_each = toset(terraform_data.src.output)
    content {
      key = setof.value
    }
  }
}
