resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  count = 2
  input = count.index
}
