# Create: every shape of tfwire_shapes, a dependent resource whose configuration holds refined unknowns
# ("prefix-${...}" of a value known only after apply), and a data source read.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

provider "tfwire" {
  label = "create"
  tags  = { team = "wire", env = "test" }
  settings = {
    level = 3
    modes = ["a", "b"]
  }
  feature {
    name    = "f1"
    enabled = true
  }
}

resource "tfwire_shapes" "all" {
  name          = "all-shapes"
  bool_value    = true
  number_value  = 123456789012345678901234567890.123456789
  int_value     = -9223372036854775808
  float_value   = 0.1
  string_value  = "héllo \"wörld\"\n\ttab ☃ 𝄞"
  list_value    = ["a", "b", "", "a"]
  set_value     = [1, 2.5, -3, 1e20]
  map_value     = { yes = true, no = false, "key with spaces" = true }
  object_value  = { a = "x", b = 1.5, c = [true, false] }
  nested_lists  = [[{ k = "v" }, {}], []]
  dynamic_value = ["tuple", 1, true, { nested = ["x"] }, null]
  single_nested = { key = "s", value = "single" }
  list_nested = [
    { key = "l1", value = "one", count = 1 },
    { key = "l2" },
  ]
  set_nested = [
    { key = "s1", value = "a" },
    { key = "s2", count = 2 },
  ]
  map_nested = {
    first  = { key = "m1", value = "x" }
    second = { key = "m2", count = 0 }
  }
  secret              = "hunter2"
  secret_map          = { db = "pa55" }
  password_wo         = "write-only-value"
  password_wo_version = 1
  single_block {
    label = "sb"
    size  = 0.000001
  }
  list_block {
    name  = "lb1"
    flags = ["x", "y"]
    inner {
      weight = 1.25
    }
    inner {
      weight = -0
    }
  }
  list_block {
    name = "lb2"
  }
  set_block {
    cidr = "10.0.0.0/8"
    port = 443
  }
  set_block {
    cidr = "192.168.0.0/16"
  }
}

resource "tfwire_shapes" "refined" {
  name          = "refined"
  string_value  = "prefix-${tfwire_shapes.all.id}"
  list_value    = ["fixed", "prefix-${tfwire_shapes.all.id}-suffix"]
  number_value  = length(tfwire_shapes.all.computed_list)
  dynamic_value = { from = tfwire_shapes.all.computed_dynamic, id = tfwire_shapes.all.id }
  map_value     = { known = true }
}

resource "tfwire_shapes" "minimal" {
  name = "minimal"
}

data "tfwire_echo" "read" {
  input = { list = [1, 2, 3], nested = { deep = [true, null] } }
  names = ["alpha", "beta", "gamma"]
  filter {
    name   = "f"
    values = ["v1", "v2"]
  }
}

output "shapes_id" {
  value = tfwire_shapes.all.id
}

output "echo" {
  value = data.tfwire_echo.read.numbers
}
