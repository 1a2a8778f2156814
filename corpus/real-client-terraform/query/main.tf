# terraform query: four things in three zones made by apply, then listed by the list blocks of
# things.tfquery.hcl (identities; the resource objects where include_resource is true; a zone filter and a
# limit), as JSON (query.json) and text (query.txt), with -generate-config-out=generated.tf (collected).
terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire" }
  }
}

resource "tfwire_thing" "t" {
  for_each = {
    "z1/one"   = { value = "1", labels = { n = "one" } }
    "z1/two"   = { value = null, labels = null }
    "z2/three" = { value = "3", labels = { n = "three", odd = "yes" } }
    "z3/four"  = { value = "4", labels = {} }
  }
  zone   = split("/", each.key)[0]
  name   = split("/", each.key)[1]
  value  = each.value.value
  labels = each.value.labels
}
