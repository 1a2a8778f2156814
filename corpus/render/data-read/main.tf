resource "terraform_data" "p" { input = "x" }
data "terraform_remote_state" "r" {
  backend = "local"
  config  = { path = "${terraform_data.p.output}/none.tfstate" }
  defaults = { a = "b" }
}
