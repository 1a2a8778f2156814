# Provider-defined functions (provider::tfwire::digest, variadic, and provider::tfwire::summarize, with list,
# string and object arguments and an object result) in resource arguments, locals and outputs: Terraform records
# each call's result in the planfile and checks it again at apply.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

locals {
  summary = provider::tfwire::summarize([1, 2.5, 100000000000000000000], "total", { upper = true, labels = { b = "2", a = "1" } })
}

resource "tfwire_item" "f" {
  name  = provider::tfwire::digest("f")
  value = provider::tfwire::digest("a", "b", "c")
  tags = {
    label = local.summary.label
    sum   = tostring(local.summary.sum)
    keys  = join(",", local.summary.keys)
  }
  index = local.summary.count
}

output "digest_of_id" {
  value = provider::tfwire::digest(tfwire_item.f.id)
}

output "summary" {
  value = local.summary
}
