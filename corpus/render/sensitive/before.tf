variable "pw" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "s" {
  input = { user = "admin", password = var.pw, keep = "k" }
}
resource "terraform_data" "whole" {
  input = var.pw
}
resource "terraform_data" "becomes" {
  input = "plain"
}
output "pw" {
  value     = var.pw
  sensitive = true
}
