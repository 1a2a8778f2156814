resource "terraform_data" "new" { input = "m" }
moved {
  from = terraform_data.old
  to   = terraform_data.new
}
resource "terraform_data" "new2" { input = "changed" }
moved {
  from = terraform_data.old2
  to   = terraform_data.new2
}
removed {
  from = terraform_data.forgetme
  lifecycle { destroy = false }
}
import {
  to = terraform_data.imported
  id = "some-id"
}
resource "terraform_data" "imported" {}
