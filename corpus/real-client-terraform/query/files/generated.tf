# __generated__ by Terraform
# Please review these resources and move them into your main configuration files.

# __generated__ by Terraform
resource "tfwire_thing" "z1_0" {
  provider = tfwire
  labels = {
    n = "one"
  }
  name  = "one"
  value = "1"
  zone  = "z1"
}

import {
  to       = tfwire_thing.z1_0
  provider = tfwire
  identity = {
    name = "one"
    zone = "z1"
  }
}



# __generated__ by Terraform
resource "tfwire_thing" "all_0" {
  provider = tfwire
  labels = {
    n = "one"
  }
  name  = "one"
  value = "1"
  zone  = "z1"
}

import {
  to       = tfwire_thing.all_0
  provider = tfwire
  identity = {
    name = "one"
    zone = "z1"
  }
}

resource "tfwire_thing" "all_1" {
  provider = tfwire
  labels   = null
  name     = "two"
  value    = null
  zone     = "z1"
}

import {
  to       = tfwire_thing.all_1
  provider = tfwire
  identity = {
    name = "two"
    zone = "z1"
  }
}

resource "tfwire_thing" "all_2" {
  provider = tfwire
  labels = {
    n   = "three"
    odd = "yes"
  }
  name  = "three"
  value = "3"
  zone  = "z2"
}

import {
  to       = tfwire_thing.all_2
  provider = tfwire
  identity = {
    name = "three"
    zone = "z2"
  }
}

resource "tfwire_thing" "all_3" {
  provider = tfwire
  labels   = null
  name     = "four"
  value    = "4"
  zone     = "z3"
}

import {
  to       = tfwire_thing.all_3
  provider = tfwire
  identity = {
    name = "four"
    zone = "z3"
  }
}



# __generated__ by Terraform
resource "tfwire_thing" "prefixed_0" {
  provider = tfwire
  labels   = null
  name     = "two"
  value    = null
  zone     = "z1"
}

import {
  to       = tfwire_thing.prefixed_0
  provider = tfwire
  identity = {
    name = "two"
    zone = "z1"
  }
}

resource "tfwire_thing" "prefixed_1" {
  provider = tfwire
  labels = {
    n   = "three"
    odd = "yes"
  }
  name  = "three"
  value = "3"
  zone  = "z2"
}

import {
  to       = tfwire_thing.prefixed_1
  provider = tfwire
  identity = {
    name = "three"
    zone = "z2"
  }
}


