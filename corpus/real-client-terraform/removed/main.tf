# removed blocks with destroy = false: OpenTofu forgets the objects without destroying them.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

removed {
  from = tfwire_item.forget_me
  lifecycle {
    destroy = false
  }
}

removed {
  from = tfwire_item.forget_all
  lifecycle {
    destroy = false
  }
}

resource "tfwire_item" "stay" {
  name = "stay"
}
