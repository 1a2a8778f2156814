resource "terraform_data" "a" { input = "a" }
output "x" { value = "1" }
