# Blocks in every nesting mode (single, group, list with min_items 1 / max_items 3, set with max_items 4, map)
# on tfwire_blocks, written directly on terraform-plugin-go, plus dynamic blocks.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

locals {
  rules = ["a > 1", "b < 2"]
}

resource "tfwire_blocks" "full" {
  name = "full"
  single {
    mode  = "strict"
    extra = { nested = [1, "two", false] }
  }
  group {
    enabled = true
    level   = 7
  }
  listed {
    name   = "first"
    weight = 0.25
    labels = { a = "b" }
    dynamic "rule" {
      for_each = local.rules
      content {
        expr = rule.value
      }
    }
  }
  listed {
    name = "second"
  }
  setof {
    key   = "k1"
    value = "v1"
  }
  setof {
    key = "k2"
  }
  mapped "one" {
    address = "10.1.1.1"
    ports   = [22, 80]
  }
  mapped "two" {}
}

resource "tfwire_blocks" "minimal" {
  name = "minimal"
  listed {
    name = "only"
  }
}

resource "tfwire_blocks" "unknown_inside" {
  name = "unknown-inside"
  note = tfwire_blocks.minimal.id
  listed {
    name = "l-${tfwire_blocks.full.id}"
  }
  single {
    extra = tfwire_blocks.full.id
  }
}
