# Objects removed from the configuration without being destroyed.
resource "terraform_data" "gone" {
  input = { a = "x", b = ["y"] }
}

resource "terraform_data" "many" {
  count = 2
  input = count.index
}
