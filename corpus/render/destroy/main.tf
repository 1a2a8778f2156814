resource "terraform_data" "gone" { input = { a = "1", b = ["x"] } }
resource "terraform_data" "counted" {
  count = 3
  input = count.index
}
resource "terraform_data" "each" {
  for_each = toset(["a", "b"])
  input    = each.key
}
resource "terraform_data" "was_single" { input = "s" }
resource "terraform_data" "was_count" {
  count = 1
  input = "c"
}
module "m" { source = "./m" }
