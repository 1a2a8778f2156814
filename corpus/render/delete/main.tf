resource "terraform_data" "counted" {
  count = 1
  input = count.index
}
resource "terraform_data" "each" {
  for_each = toset(["a"])
  input    = each.key
}
resource "terraform_data" "was_single" {
  count = 1
  input = "s"
}
resource "terraform_data" "was_count" {
  input = "c"
}
