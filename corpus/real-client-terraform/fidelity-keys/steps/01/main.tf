# Instance keys that need quoting: template sequences (`${` and `%{`, written `$${` and `%%{` in HCL), HTML
# characters (< > &), control characters, digits-only strings, upper and lower case; a count of more than ten (state
# list sorts int keys numerically); module instance keys of the same kinds, a module count past ten, a nested module
# (shorter module paths list first). The captured step drops a for_each key
# holding < & > (its delete reason shows the key as Go's JSON encoder writes it) and lowers the count.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "k" {
  for_each = toset([
    "a$${x}", "b%%{y}", "<tag>&amp;", "ctl\u0001x", "tab\tx", "nl\nx", "quote\"x", "back\\x", "10", "9", "Z", "a",
    "é", "", "sp ace", "a\u0001", "a\\", "a$z", "gone<&>", "gone\u0002"
  ])
  name = "k-${md5(each.key)}"
}

resource "tfwire_item" "n" {
  count = 12
  name  = "n-${count.index}"
  index = count.index
}

module "m" {
  source   = "./modules/leaf"
  for_each = toset(["b", "a<&>", "a$${z}", "10", "9"])
  name     = "m-${md5(each.key)}"
}

module "c" {
  source = "./modules/leaf"
  count  = 11
  name   = "c-${count.index}"
}

module "a_outer" {
  source = "./modules/outer"
}
