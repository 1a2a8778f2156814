# check blocks (one passing, one failing, one with a scoped data source), preconditions and postconditions, and
# a variable validation.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

variable "size" {
  type    = number
  default = 3
  validation {
    condition     = var.size > 0
    error_message = "size must be positive"
  }
}

resource "tfwire_shapes" "c" {
  name         = "checked"
  number_value = var.size
  lifecycle {
    precondition {
      condition     = var.size < 10
      error_message = "too big"
    }
    postcondition {
      condition     = self.id != ""
      error_message = "no id"
    }
  }
}

check "passes" {
  assert {
    condition     = tfwire_shapes.c.name == "checked"
    error_message = "name changed"
  }
}

check "fails" {
  assert {
    condition     = tfwire_shapes.c.number_value > 100
    error_message = "number_value is not above 100 (this check fails on purpose)"
  }
}

check "with_data" {
  data "tfwire_echo" "scoped" {
    names = ["scoped"]
  }
  assert {
    condition     = length(data.tfwire_echo.scoped.upper) == 1
    error_message = "one name expected"
  }
}

output "checked" {
  value = tfwire_shapes.c.id
  precondition {
    condition     = length(tfwire_shapes.c.name) > 0
    error_message = "empty name"
  }
}
