# terraform_data's store block holds a write-only input (Terraform only): updated, replaced
# and kept.
resource "terraform_data" "updated" {
  store {
    input   = "v2"
    version = 2
  }
}

resource "terraform_data" "replaced" {
  triggers_replace = "b"
  store {
    input   = "kept"
    version = 1
  }
}

resource "terraform_data" "kept" {
  input = "changed"
  store {
    input   = "kept"
    version = 1
  }
}

resource "terraform_data" "secret" {
  store {
    input     = "s2"
    version   = 2
    sensitive = true
  }
}
