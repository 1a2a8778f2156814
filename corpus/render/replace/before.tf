resource "terraform_data" "trig" {
  input            = "a"
  triggers_replace = ["v1"]
}
resource "terraform_data" "tainted" {
  input = "t"
}
resource "terraform_data" "requested" {
  input = "r"
}
resource "terraform_data" "src" {
  input = "1"
}
resource "terraform_data" "by_triggers" {
  input = "b"
  lifecycle { replace_triggered_by = [terraform_data.src] }
}
resource "terraform_data" "cbd" {
  input            = "c"
  triggers_replace = "one"
  lifecycle { create_before_destroy = true }
}
