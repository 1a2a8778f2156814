# Outputs of every type: primitives, collections, structural types, null, big and fractional numbers, a
# non-NFC string from the provider, values known only after apply and values known at plan.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "o" {
  name = "outputs"
}

data "tfwire_echo" "e" {
  input = { a = 1 }
  names = ["x", "y"]
}

output "string" { value = "text" }
output "empty_string" { value = "" }
output "number" { value = 42 }
output "fraction" { value = 0.1 }
output "big_number" { value = 340282366920938463463374607431768211457 }
output "negative" { value = -1.5e-7 }
output "bool" { value = false }
output "null" { value = null }
output "list" { value = tolist(["a", "b"]) }
output "empty_list" { value = tolist([]) }
output "set" { value = toset([3, 1, 2]) }
output "map" { value = tomap({ a = 1, b = 2 }) }
output "object" { value = { name = "o", tags = ["x"], nested = { deep = true } } }
output "tuple" { value = ["mixed", 1, true, null, { k = "v" }] }
output "list_of_objects" { value = [{ a = 1 }, { a = 2 }] }
output "map_of_lists" { value = tomap({ x = [1], y = [2, 3] }) }
output "unknown_id" { value = tfwire_shapes.o.id }
output "unknown_dynamic" { value = tfwire_shapes.o.computed_dynamic }
output "unknown_number" { value = tfwire_shapes.o.computed_number }
output "known_at_plan" { value = tfwire_shapes.o.computed_list }
output "partly_unknown" { value = { id = tfwire_shapes.o.id, fixed = "f" } }
output "refined_prefix" { value = "prefix-${tfwire_shapes.o.id}" }
output "nfd_from_provider" { value = data.tfwire_echo.e.nfd }
output "numbers_from_provider" { value = data.tfwire_echo.e.numbers }
output "nested_from_provider" { value = data.tfwire_echo.e.items }
output "whole_resource" {
  value     = tfwire_shapes.o
  sensitive = true
}
