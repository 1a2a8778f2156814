resource "terraform_data" "in_module" {
  input = "m"
}
