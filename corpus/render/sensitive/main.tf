variable "pw" {
  default   = "hunter3"
  sensitive = true
}
resource "terraform_data" "s" {
  input = { user = "root", password = var.pw, keep = "k" }
}
resource "terraform_data" "whole" {
  input = var.pw
}
resource "terraform_data" "becomes" {
  input = sensitive("plain")
}
resource "terraform_data" "unknown_sensitive" {
  input = { v = sensitive(terraform_data.whole.output), plain = terraform_data.whole.id }
}
output "pw" {
  value     = var.pw
  sensitive = true
}
