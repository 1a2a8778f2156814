# import blocks: two file-backed records of the tfwire provider (one with for_each) and a time_static of the
# time provider, whose import id is its timestamp.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
    time   = { source = "hashicorp/time" }
    local  = { source = "hashicorp/local" }
  }
}

import {
  to = tfwire_record.imported
  id = "store/imported.json"
}

resource "tfwire_record" "imported" {
  path  = "store/imported.json"
  value = "made outside"
  tags  = { origin = "shell" }
}

import {
  for_each = { second = "store/imported-2.json" }
  to       = tfwire_record.each[each.key]
  id       = each.value
}

resource "tfwire_record" "each" {
  for_each = { second = "store/imported-2.json" }
  path     = each.value
  value    = "second, changed"
}

import {
  to = time_static.t
  id = "2020-02-02T02:02:02Z"
}

resource "time_static" "t" {
  rfc3339 = "2020-02-02T02:02:02Z"
}
