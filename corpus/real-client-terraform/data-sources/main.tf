# Data source reads: dynamic inputs of many types, nested blocks, reads deferred to apply (depending on an unknown
# value), a record and a local file written by steps/01, and for_each over a data source.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
    time   = { source = "hashicorp/time" }
    local  = { source = "hashicorp/local" }
  }
}

resource "tfwire_record" "seed" {
  path  = "store/seed.json"
  value = "seeded"
  tags  = { k = "v" }
}

resource "local_file" "seed" {
  filename = "out/seed.txt"
  content  = "from a file"
}

resource "tfwire_item" "later" {
  name = "later"
}

data "tfwire_echo" "types" {
  for_each = {
    string = "s"
    number = 1.5
    bool   = true
    list   = [1, 2]
    object = { a = { b = ["c"] } }
    null   = null
  }
  input = each.value
  names = [each.key]
}

data "tfwire_echo" "with_blocks" {
  names = ["a", "b", "c"]
  filter {
    name   = "one"
    values = ["x"]
  }
  filter {
    name = "two"
  }
}

data "tfwire_echo" "deferred" {
  input = tfwire_item.later.id
  names = ["deferred-${tfwire_item.later.id}"]
}

data "tfwire_record" "seed" {
  path = tfwire_record.seed.path
}

data "local_file" "seed" {
  filename = local_file.seed.filename
}

output "record_value" {
  value = data.tfwire_record.seed.value
}
