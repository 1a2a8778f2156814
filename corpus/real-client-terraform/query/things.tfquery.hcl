list "tfwire_thing" "all" {
  provider         = tfwire
  include_resource = true
}

list "tfwire_thing" "z1" {
  provider = tfwire
  limit    = 1
  config {
    zone = "z1"
  }
}

list "tfwire_thing" "prefixed" {
  provider = tfwire
  config {
    prefix = "t"
  }
}
