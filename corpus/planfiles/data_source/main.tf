# A data source whose configuration is unknown until apply: read during apply.
resource "terraform_data" "path" {
  input = "other.tfstate"
}

data "terraform_remote_state" "other" {
  backend = "local"
  config = {
    path = terraform_data.path.output
  }
}

output "remote" {
  value = data.terraform_remote_state.other.outputs
}
