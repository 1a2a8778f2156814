terraform {
  required_providers {
    tfwire = {
      source  = "tfwire/tfwire"
      version = ">= 1.0, < 2.0.0"
    }
    local = { source = "hashicorp/local", version = "~>1.4" }
  }
}

provider "tfwire" {
}

provider "tfwire" {
  alias = "second"
}

variable "plain" {}
variable "typed_list" {
  type    = list(string)
  default = [1, "b", true]
}
variable "typed_set" {
  type    = set(number)
  default = [3, 1, 2, 1]
}
variable "typed_map" {
  type        = map(number)
  default     = { b = "2", a = 1.50 }
  description = "a <map> & more"
}
variable "obj" {
  type = object({
    name = string
    size = optional(number, 7)
    tags = optional(map(string))
  })
  default = { name = "x" }
  sensitive = true
}
variable "tup" {
  type    = tuple([string, number, bool])
  default = ["a", "2", "true"]
}
variable "untyped" {
  default = { z = [1, 2.5, -3], a = null, "quoted key" = "v" }
}
variable "nullable_default" {
  type    = string
  default = null
}
variable "big" {
  default = 123456789012345678901234567890
}
variable "frac" {
  default = 0.1e-3
}

locals {
  base = "b"
  m    = { for k, v in var.typed_map : k => v * 2 }
}

resource "terraform_data" "exprs" {
  input = {
    arith    = 1 + 2 * 3
    neg      = -5
    cmp      = 3 > 2 && !false
    cond     = true ? "yes" : "no"
    tmpl     = "a-${"b"}-c"
    wrap     = "${42}"
    heredoc  = <<-EOT
      line one
        indented
      EOT
    esc      = "quote \" tab \t <html> & amp \u00e9"
    idx      = [10, 20, 30][1]
    attr     = { a = { b = "deep" } }.a.b
    paren    = (1 + 1)
    numstr   = "1" + 2
  }
  triggers_replace = [local.base, var.typed_map["a"], var.typed_list[0], local.m]
}

resource "terraform_data" "refs" {
  count = 2
  input = {
    a = terraform_data.exprs.output
    b = terraform_data.exprs.input.arith
    c = module.child[0].out
    d = module.each["k1"].out
    e = module.child
    f = [for i, x in var.typed_list : "${i}:${x}" if x != local.base]
    g = terraform_data.exprs[*].id
    h = data.tfwire_echo.e.upper
    i = count.index
    j = path.module
    k = terraform.workspace
    l = "%{if var.plain != ""}x%{else}y%{endif}%{for s in var.typed_list}${s}%{endfor}"
    m = upper(var.plain)
    n = var.obj["name"]
    o = local.m["a"]
    p = module.each
    q = terraform_data.exprs.input["attr"]
  }
  depends_on = [terraform_data.exprs, module.child]

  provisioner "local-exec" {
    command = "echo ${self.id}"
    when    = create
  }
}

resource "tfwire_item" "aliased" {
  provider = tfwire.second
  for_each = toset(["x", "y"])
  name     = each.key
  value    = "${each.value}-v"
}

data "tfwire_echo" "e" {
  names = ["n"]
}

module "child" {
  source = "./modules/child"
  count  = 1
  label  = "c${count.index}"
  providers = {
    tfwire       = tfwire
    tfwire.other = tfwire.second
  }
}

module "each" {
  source   = "./modules/child"
  for_each = { k1 = "a" }
  label    = each.value
  providers = {
    tfwire.other = tfwire
  }
  depends_on = [terraform_data.exprs]
}

output "simple" {
  value       = 1
  description = "one"
}
output "secret" {
  value     = var.obj
  sensitive = true
  depends_on = [terraform_data.exprs]
}
output "mod" {
  value = module.child[0].out
}
