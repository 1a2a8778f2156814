# Replace: a new name (RequiresReplace) on each resource; plan.json carries replace_paths, and one is forced
# with -replace.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "r" {
  name         = "after-replace"
  string_value = "kept"
}

resource "tfwire_blocks" "r" {
  name = "blocks-after"
  listed {
    name = "l"
  }
}

resource "tfwire_record" "r" {
  path  = "store/before.json"
  value = "v"
}
