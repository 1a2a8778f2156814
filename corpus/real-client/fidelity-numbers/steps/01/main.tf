# Step 1: objects whose JSON-looking strings and big numbers the captured step changes.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "upd" {
  name  = "upd"
  index = 1e400
  value = "{\"a\":1.0,\"b\":2,\"c\":100,\"d\":[1,2.50]}"
  tags  = { j = "[1, 2, 3]", k = "{\"x\":1e2}" }
}

resource "tfwire_item" "same" {
  name  = "same"
  index = -1e400
  value = "{\"keep\":1.50}"
}
