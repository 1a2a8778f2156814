resource "terraform_data" "seed" {
  input = "abc"
}

resource "terraform_data" "fanout" {
  count = length(terraform_data.seed.id)
  input = count.index
}

resource "terraform_data" "later" {
  for_each = toset([terraform_data.seed.id])
  input    = each.key
}

import {
  to = terraform_data.imported
  id = terraform_data.seed.id
}

resource "terraform_data" "imported" {
  input = "i"
}

output "n" {
  value = length(terraform_data.fanout)
}
