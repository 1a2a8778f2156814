# An import block inside a module (Terraform 1.16): the module imports a record made outside the client, then
# updates it.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

module "store" {
  source = "./modules/store"
  path   = "store/in-module.json"
}

output "value" {
  value = module.store.value
}
