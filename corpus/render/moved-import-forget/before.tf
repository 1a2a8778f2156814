resource "terraform_data" "old" { input = "m" }
resource "terraform_data" "old2" { input = "m2" }
resource "terraform_data" "forgetme" { input = "f" }
