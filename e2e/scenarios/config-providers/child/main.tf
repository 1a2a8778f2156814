terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire", version = ">= 1" }
  }
}
resource "tfwire_item" "c" {
  name = "c"
}
resource "local_file" "inherited" {
  filename = "/tmp/cfgp/never2"
  content  = "y"
}
