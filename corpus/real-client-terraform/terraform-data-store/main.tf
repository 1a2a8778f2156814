# terraform_data with a store block (Terraform 1.16): a write-only input kept as a stable output, a sensitive one,
# a versioned one and one that replaces, beside a plain terraform_data. Planned only: the ids are random UUIDs.
resource "terraform_data" "plain" {
  input = { a = 1, b = ["x", "y"], c = null }
}

resource "terraform_data" "stored" {
  store {
    input   = "kept across plan and apply"
    version = 1
  }
}

resource "terraform_data" "secret" {
  store {
    input     = "s3cret-store"
    sensitive = true
  }
}

resource "terraform_data" "replacing" {
  store {
    input   = { n = 2 }
    replace = true
  }
}

output "stored" {
  value = terraform_data.stored.store.output
}
