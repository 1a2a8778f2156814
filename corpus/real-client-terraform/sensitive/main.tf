# Sensitive values: sensitive attributes, sensitive() of a whole object, sensitive outputs, a sensitive provider
# argument and a sensitive value flowing into a non-sensitive attribute.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

variable "token" {
  type      = string
  default   = "t0ken"
  sensitive = true
}

provider "tfwire" {
  secret = var.token
}

resource "tfwire_shapes" "s" {
  name         = "sensitive"
  secret       = "s3cret"
  secret_map   = { one = "1", two = "2" }
  string_value = var.token
  object_value = sensitive({ a = "hidden", b = 2, c = [true] })
  list_value   = ["plain", sensitive("hidden-element")]
  password_wo  = var.token
}

data "tfwire_echo" "e" {
  secret = var.token
  input  = { token = var.token, plain = "visible" }
}

output "secret_output" {
  value     = tfwire_shapes.s.secret
  sensitive = true
}

output "whole_object" {
  value     = tfwire_shapes.s.object_value
  sensitive = true
}

output "computed_secret" {
  value     = tfwire_shapes.s.computed_secret
  sensitive = true
}

output "echo_output" {
  value     = data.tfwire_echo.e.output
  sensitive = true
}

output "not_secret" {
  value = tfwire_shapes.s.id
}
