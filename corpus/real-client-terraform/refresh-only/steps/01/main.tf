terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
    time   = { source = "hashicorp/time" }
    local  = { source = "hashicorp/local" }
  }
}

resource "tfwire_record" "changed" {
  path  = "store/changed.json"
  value = "as configured"
  tags  = { a = "1" }
}

resource "tfwire_record" "deleted" {
  path  = "store/deleted.json"
  value = "will vanish"
}

resource "tfwire_record" "same" {
  path  = "store/same.json"
  value = "untouched"
}

resource "local_file" "f" {
  filename = "out/drift.txt"
  content  = "local content\n"
}
