# A tainted object, replaced.
resource "terraform_data" "t" {
  input = "x"
}
