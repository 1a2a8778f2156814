resource "terraform_data" "kept" {
  input = "v1"

  lifecycle {
    destroy = false
  }
}
