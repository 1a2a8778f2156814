# A tainted object whose resource says `destroy = false`: replaced, the old object forgotten.
resource "terraform_data" "kept" {
  input = "x"
  lifecycle {
    destroy = false
  }
}
