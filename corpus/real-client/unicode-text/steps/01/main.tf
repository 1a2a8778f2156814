terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_shapes" "u" {
  name         = "unicode-text"
  string_value = "new emoji \U0001FAE9, unassigned \u0378"
  list_value   = ["\U0001FAE8 shaking face (15.0)", "\U0002EBF0 ideograph (15.1)", "\U00031350 ideograph (15.0)"]
  map_value = {
    "plain"            = true
    "\U0001FAE9"       = true
    "x\u0378y"         = false
    "\u1C90\u1C91"     = true
    "\U0002EBF0"       = false
    "a-b"              = true
    "\U0001E900\u1C90" = true
  }
  dynamic_value = {
    ascii         = "a"
    "\u1C90"      = "Georgian Mtavruli, a letter since Unicode 11"
    "a\uA7C0"     = "Latin old Polish O, a letter since Unicode 14"
    "\U00030000"  = "CJK extension G, Unicode 13"
    "\U0001E900"  = "Adlam, Unicode 9"
    "名前"          = "\u0378"
    "x\U0001FAE9" = "\U0001FAE9"
  }
  map_nested = {
    "\u0378" = { key = "\U0001FAE9" }
    "\u1C90" = { key = "k" }
  }
}

resource "tfwire_blocks" "b" {
  name = "unicode-blocks"
  listed {
    name = "l1"
  }
  mapped "\U0001fae9" {
    address = "\u0378"
  }
  mapped "Ა" {
    address = "10.0.0.1"
  }
}

resource "tfwire_item" "tags" {
  name = "unicode-tags"
  tags = {
    "\U0001FAE9" = "\U0001FAE9"
    "\u0378"     = "x\u0378"
    "\u1C90"     = "\u1C90"
    json         = jsonencode({ "\u1C90" = "\U0001FAE9", "\U0001E900" = "\u0378", ok = "x" })
  }
}

output "emoji" {
  value = "\U0001FAE9"
}
