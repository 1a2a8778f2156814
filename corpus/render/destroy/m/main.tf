resource "terraform_data" "x" { input = "m" }
