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
