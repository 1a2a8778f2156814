resource "terraform_data" "a" { input = "a" }
output "x" { value = "2" }
output "y" { value = terraform_data.a.output }
