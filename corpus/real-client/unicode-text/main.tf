# Unicode in values and names, created in steps/01 and updated here: code points Go's %q escapes
# (U+1FAE9 of Unicode 16, U+2EBF0 of Unicode 15.1, unassigned U+0378) and keeps (U+1FAE8 and
# U+31350 of Unicode 15.0), letters that are identifiers in Unicode today but not in HCL's
# Unicode 9.0 tables (U+1C90 of Unicode 11, U+A7C0 of Unicode 14, U+30000 of Unicode 13) and
# letters that are (U+1E900 of Unicode 9), as map keys, object keys, block labels and values.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "u" {
  name         = "unicode-text"
  string_value = "newer emoji \U0001FAE9\U0001FAEA, unassigned \u0378\u0379"
  list_value   = ["\U0001FAE8 shaking face (15.0)", "\U0002EBF1 ideograph (15.1)", "\U00031350 ideograph (15.0)", "\u0378"]
  map_value = {
    "plain"            = false
    "\U0001FAE9"       = false
    "x\u0378y"         = false
    "\u1C90\u1C91"     = true
    "a-b"              = true
    "\U0001E900\u1C90" = false
    "\U0001FAEA"       = true
    "\u0379"           = true
  }
  dynamic_value = {
    ascii         = "b"
    "\u1C90"      = "Georgian Mtavruli \u1C90, a letter since Unicode 11"
    "a\uA7C0"     = "Latin old Polish O, a letter since Unicode 14"
    "\U00030000"  = "CJK extension G \U00030000, Unicode 13"
    "\U0001E900"  = "Adlam \U0001E900, Unicode 9"
    "名前"          = "\u0379"
    "x\U0001FAE9" = "\U0001FAEA"
    "\u1C91"      = "new"
  }
  map_nested = {
    "\u0378"     = { key = "\U0001FAEA" }
    "\u1C90"     = { key = "k" }
    "\U0001FAE9" = { key = "\u0378" }
  }
}

resource "tfwire_blocks" "b" {
  name = "unicode-blocks"
  listed {
    name = "l1"
  }
  mapped "\U0001fae9" {
    address = "\u0379"
  }
  mapped "Ა" {
    address = "10.0.0.2"
  }
  mapped "\u0378" {}
}

resource "tfwire_item" "tags" {
  name = "unicode-tags"
  tags = {
    "\U0001FAE9" = "\U0001FAEA"
    "\u0378"     = "x\u0379"
    "\u1C90"     = "\u1C90"
    "\U0002EBF0" = "added"
    json         = jsonencode({ "\u1C90" = "\U0001FAEA", "\U0001E900" = "\u0378", ok = "y" })
  }
}

output "emoji" {
  value = "\U0001FAEA"
}

output "keys" {
  value = { "\u1C90" = "\u0378", "\U0001FAE9" = 1 }
}
