# Numbers beyond binary64's range (go-cty writes 1e400 as a 401-digit integer) in number attributes, created,
# updated and unchanged; strings holding JSON whose numbers are written unusually (1.50, -0, 1E2, 1e400, 0.10e1),
# created and updated (the renderer shows them as written).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "big" {
  name  = "big"
  index = 1e400
  value = "{\"a\":1.50,\"b\":-0,\"c\":1E2,\"d\":1e400,\"e\":0.10e1,\"f\":[-0.0,1E+2,12345678901234567890123]}"
  tags  = { j = "[1.50, -0, 1E2]", n = "-0", s = "1E2" }
}

resource "tfwire_item" "upd" {
  name  = "upd"
  index = 2e400
  value = "{\"a\":1.50,\"b\":-0,\"c\":1E2,\"d\":[1,2.5]}"
  tags  = { j = "[1, 2.0, 3]", k = "{\"x\":1E2}" }
}

resource "tfwire_item" "same" {
  name  = "same"
  index = -1e400
  value = "{\"keep\":1.50}"
}

resource "tfwire_item" "small" {
  name  = "small"
  index = 1e-400
}

output "big" {
  value = tfwire_item.big.index
}

output "json" {
  value = tfwire_item.big.value
}
