terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

resource "terraform_data" "encoded" {
  input = provider::terraform::encode_tfvars({ name = "tfwire", count = 2 })
}

output "decoded" {
  value = provider::terraform::decode_tfvars("a = 1")
}
