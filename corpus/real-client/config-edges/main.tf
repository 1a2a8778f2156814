terraform {
  required_providers {
    tfwire = { source = "tfwire/tfwire", version = "~> 1.0.0" }
    time   = { source = "hashicorp/time" }
  }
}

provider "tfwire" {
  alias = "cfg"
}

variable "s" {
  type      = string
  default   = "x"
  ephemeral = false
}

locals {
  k = "key"
}

resource "terraform_data" "consts" {
  input = {
    div      = 7 / 2
    mod      = 7 % 3
    third    = 1 / 3
    big      = 99999999999999999999 * 10
    fcmp     = 1.5 < 2
    scmp     = "a" == "a"
    lcmp     = [1, 2] == [1, 2]
    forl     = [for x in [1, 2, 3] : x * 2]
    form     = { for k, v in { a = 1, b = 2 } : k => v if v > 1 }
    splat    = [{ a = 1 }, { a = 2 }][*].a
    strip    = "a ${~"b"~} c"
    ifd      = "%{if true}yes%{else}no%{endif}"
    ford     = "%{for x in ["a", "b"]}${x},%{endfor}"
    uni      = "\u2028 \U0001F600 ☃"
    ctrl     = "bell \u0007 del \u007f"
    negzero  = -0.0
    expo     = 1e3
    small    = 5e-324
    nulltmpl = null
    nested   = [[1, [2, [3]]], { x = { y = { z = true } } }]
    numkey   = { 1 = "one", "2" = "two" }
    mixed    = [1, "a", true, null]
    tostr    = "${1.50}${true}"
    boolstr  = true == "true"
    cond2    = 1 > 2 ? "a" : 3
  }
}

resource "terraform_data" "keyed" {
  for_each = { "a b" = 1, "q\"uote" = 2, "$${x}" = 3 }
  input    = each.value
}

resource "terraform_data" "keys" {
  input = [
    terraform_data.consts.input["div"],
    terraform_data.keyed["a b"].id,
    terraform_data.keyed["$${x}"].input,
    terraform_data.keyed["q\"uote"],
    terraform_data.consts.input.nested[0][1],
    var.s,
    local.k,
  ]
}

resource "tfwire_shapes" "blocks" {
  provider = tfwire.cfg
  count    = length(var.s)
  name     = "n-${count.index}"
  dynamic "list_block" {
    for_each = [1]
    content {
      name = "dyn"
    }
  }
  list_block {
    name = "static"
  }
  single_block {
    label = "one"
  }
  lifecycle {
    ignore_changes = [name]
  }
}

data "tfwire_echo" "counted" {
  count = 2
  names = [tostring(count.index)]
}

resource "time_static" "t" {
  triggers = { a = var.s }
}

module "m" {
  source = "./modules/m"
  providers = {
    tfwire = tfwire.cfg
  }
  in = data.tfwire_echo.counted[1].upper
}

moved {
  from = terraform_data.old
  to   = terraform_data.consts
}

import {
  to = terraform_data.imp
  id = "x"
}

resource "terraform_data" "imp" {
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "x"
    }
  }
  connection {
    host = "h"
  }
  provisioner "file" {
    content     = "c"
    destination = "/tmp/never-${self.id}"
    on_failure  = continue
  }
}

removed {
  from = terraform_data.gone
  lifecycle {
    destroy = false
  }
}

output "ref_module_output" {
  value = module.m.out
}
output "ref_module_whole" {
  value = module.m
}
output "deprecated_ish" {
  value       = "v"
  description = "\u003c tag \u003e"
}
