resource "terraform_data" "g" {
  input = "grand"
}
resource "local_file" "f" {
  filename = "/tmp/cfgx/never"
  content  = "x"
}
output "g" {
  value = terraform_data.g.output
}
