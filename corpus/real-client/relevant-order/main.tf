# Relevant attributes: many attributes of a few resources referenced by other resources and by outputs, so
# the plan records more than 12 relevant_attributes, several per resource (the order within one resource is
# what each client's sort algorithm makes of the plan file's order).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_record" "a" {
  path  = "store/a.json"
  value = "a"
  tags  = { k = "a" }
}

resource "tfwire_record" "b" {
  path  = "store/b.json"
  value = "b"
}

resource "tfwire_item" "c" {
  name  = "c"
  value = "c"
  tags  = { k = "c" }
}

resource "tfwire_item" "uses" {
  name  = "${tfwire_record.a.id}-${tfwire_record.a.path}-${tfwire_record.a.value}-${tfwire_record.a.size}"
  value = "${tfwire_record.b.id}-${tfwire_record.b.path}-${tfwire_record.b.value}-${tfwire_record.b.size}"
  tags = {
    a   = tfwire_record.a.tags["k"]
    c   = tfwire_item.c.tags["k"]
    cid = tfwire_item.c.id
    cn  = tfwire_item.c.name
    cv  = tfwire_item.c.value
    ci  = tostring(tfwire_item.c.index)
  }
}

output "record_b_tags" {
  value = tfwire_record.b.tags
}

output "item_c" {
  value = [tfwire_item.c.id, tfwire_item.c.name, tfwire_item.c.value]
}

output "uses" {
  value = [tfwire_item.uses.id, tfwire_item.uses.name, tfwire_item.uses.value, tfwire_item.uses.tags]
}
