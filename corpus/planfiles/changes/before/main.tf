# The configuration applied first; main.tf is then planned against the resulting state.
resource "terraform_data" "updated" {
  input = { version = 1, keep = "same" }
}

resource "terraform_data" "replaced" {
  input            = "v1"
  triggers_replace = ["v1"]
}

resource "terraform_data" "deleted" {
  input = "gone soon"
}

resource "terraform_data" "old_name" {
  input = "moves"
}

resource "terraform_data" "forgotten" {
  input = "forget me"
}

resource "terraform_data" "counted" {
  count = 3
  input = count.index
}

resource "terraform_data" "requested" {
  input = "replace by request"
}

resource "terraform_data" "tainted" {
  input = "tainted"
}

resource "terraform_data" "unchanged" {
  input = "same"
}

output "kept" {
  value = "same"
}

output "changed" {
  value = 1
}

output "removed" {
  value = "bye"
}
