terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "r" {
  name         = "before-replace"
  string_value = "kept"
}

resource "tfwire_blocks" "r" {
  name = "blocks-before"
  listed {
    name = "l"
  }
}

resource "tfwire_record" "r" {
  path  = "store/before.json"
  value = "v"
}
