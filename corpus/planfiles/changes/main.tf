# Planned against the state of before/main.tf (applied), with `-replace=terraform_data.requested`
# after `tofu taint terraform_data.tainted`: every kind of change the builtin provider can make.
resource "terraform_data" "updated" {
  input = { version = 2, keep = "same" }
}

resource "terraform_data" "replaced" {
  input            = "v2"
  triggers_replace = ["v2"]
}

moved {
  from = terraform_data.old_name
  to   = terraform_data.new_name
}

resource "terraform_data" "new_name" {
  input = "moves"
}

removed {
  from = terraform_data.forgotten
  lifecycle {
    destroy = false
  }
}

resource "terraform_data" "counted" {
  count = 1
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

resource "terraform_data" "created" {
  input = terraform_data.updated.output
}

output "kept" {
  value = "same"
}

output "changed" {
  value = 2
}

output "added" {
  value = terraform_data.created.id
}
