# terraform_data's store block holds a write-only input (Terraform only): updated, replaced
# and kept.
resource "terraform_data" "updated" {
  store {
    input   = "v1"
    version = 1
  }
}

resource "terraform_data" "replaced" {
  triggers_replace = "a"
  store {
    input   = "kept"
    version = 1
  }
}

resource "terraform_data" "kept" {
  input = "same"
  store {
    input   = "kept"
    version = 1
  }
}

resource "terraform_data" "secret" {
  store {
    input     = "s1"
    version   = 1
    sensitive = true
  }
}
