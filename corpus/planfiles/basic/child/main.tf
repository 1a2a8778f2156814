variable "seed" {
  type = string
}

resource "terraform_data" "inner" {
  for_each = { one = 1, two = 2 }
  input    = { seed = var.seed, n = each.value }
}

output "out" {
  value = [for k, v in terraform_data.inner : v.output]
}
