# In-place update: the same resources as steps/01 with changed attributes, nested values, blocks and a secret.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "u" {
  name          = "updated"
  string_value  = "after"
  number_value  = 0.5
  list_value    = ["a", "c", "b"]
  map_value     = { keep = true, added = true }
  dynamic_value = ["now", "a", "tuple"]
  list_nested   = [{ key = "k1", value = "v1-changed" }, { key = "k2" }]
  set_nested    = [{ key = "s1" }, { key = "s3", value = "new" }]
  secret        = "new-secret"
  list_block {
    name  = "one"
    flags = ["changed"]
  }
  list_block {
    name = "two"
  }
}

resource "tfwire_blocks" "b" {
  name = "blocks-update"
  note = "now with a note"
  listed {
    name   = "l1"
    weight = 2
  }
  listed {
    name = "l2"
    rule {
      expr = "x > 1"
    }
  }
  mapped "east" {
    address = "10.0.0.2"
    ports   = [80, 443]
  }
  mapped "west" {}
  single {
    mode  = "on"
    extra = { any = ["dynamic", 1] }
  }
}
