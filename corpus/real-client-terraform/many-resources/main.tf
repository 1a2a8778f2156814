# A plan of 520 resources (500 tfwire_item with count, 20 tfwire_shapes with for_each); planned only.
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_item" "n" {
  count = 500
  name  = "item-${count.index}"
  index = count.index
  tags  = { shard = tostring(count.index % 7) }
}

resource "tfwire_shapes" "s" {
  for_each     = { for i in range(20) : format("s%02d", i) => i }
  name         = each.key
  number_value = each.value * 1.5
  list_nested  = [{ key = each.key, count = each.value }]
}
