terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "u" {
  name          = "updated"
  string_value  = "before"
  list_value    = ["a", "b"]
  map_value     = { keep = true, drop = false }
  dynamic_value = { kind = "object", n = 1 }
  list_nested   = [{ key = "k1", value = "v1" }]
  set_nested    = [{ key = "s1" }]
  secret        = "old-secret"
  list_block {
    name = "one"
  }
}

resource "tfwire_blocks" "b" {
  name = "blocks-update"
  listed {
    name   = "l1"
    weight = 1
  }
  mapped "east" {
    address = "10.0.0.1"
    ports   = [80]
  }
}
