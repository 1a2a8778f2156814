# Planned with -refresh-only against the state of before/main.tf: moved objects are drift.
moved {
  from = terraform_data.a
  to   = terraform_data.renamed
}

resource "terraform_data" "renamed" {
  input = "a"
}

resource "terraform_data" "b" {
  count = 2
  input = count.index
}

output "new" {
  value = "appears"
}
