# A fresh plan: creates only, with inputs and outputs of every type.
variable "name" {
  type    = string
  default = "web"
}

variable "ports" {
  type = list(number)
}

variable "settings" {
  type = object({
    enabled = bool
    tags    = map(string)
    ratio   = number
  })
}

variable "password" {
  type      = string
  sensitive = true
}

resource "terraform_data" "single" {
  input = {
    name  = var.name
    ports = var.ports
    text  = "multi\nline <html> & \"quotes\" ünïcödé"
    big   = 123456789012345678901234567890
    frac  = 0.1
    neg   = -42
    empty = []
    nul   = null
  }
}

resource "terraform_data" "counted" {
  count = 3
  input = count.index
}

resource "terraform_data" "each" {
  for_each = toset(["a", "b\"quoted\"", "with space"])
  input    = each.key
  triggers_replace = [each.key]
}

resource "terraform_data" "secret" {
  input = var.password
}

module "child" {
  source = "./child"
  seed   = terraform_data.single.id
}

check "ports_positive" {
  assert {
    condition     = alltrue([for p in var.ports : p > 0])
    error_message = "ports must be positive"
  }
}

output "string" {
  value = "hello"
}

output "number" {
  value = 3.25
}

output "bool" {
  value = true
}

output "list" {
  value = [1, 2, 3]
}

output "tuple" {
  value = ["a", 1, false, null]
}

output "map" {
  value = tomap({ a = "x", b = "y" })
}

output "object" {
  value = { nested = { deep = [var.name] }, n = 1 }
}

output "null" {
  value = null
}

output "unknown" {
  value = terraform_data.single.id
}

output "partly_unknown" {
  value = { id = terraform_data.single.id, known = "k", list = [terraform_data.single.id, "x"] }
}

output "sensitive" {
  value     = var.password
  sensitive = true
}

output "child" {
  value = module.child.out
}
