# Modules with count and for_each, a nested module (count inside for_each) and outputs through modules.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

module "counted" {
  source = "./modules/box"
  count  = 2
  name   = "counted-${count.index}"
}

module "each" {
  source   = "./modules/box"
  for_each = { small = 1, large = 2 }
  name     = "each-${each.key}"
  size     = each.value
}

output "counted_ids" {
  value = module.counted[*].id
}

output "each_ids" {
  value = { for k, m in module.each : k => m.id }
}
