resource "terraform_data" "a" {
  input = {
    name    = "x"
    list    = ["a", "b", "c"]
    multi   = "line1\nline2\n"
    policy  = jsonencode({ Version = "2012", Statement = [{ Effect = "Allow", Action = ["s3:Get*"] }] })
    num     = 42
    float   = 3.25
    big     = 12345678901234567890
    yes     = true
    nothing = null
    empty   = []
    emptym  = {}
    "a key" = "spaces and \"quotes\" and \t tab"
    uni     = "héllo ✓ \u00a0nbsp"
    nested  = { inner = { deep = [1, 2, { x = "y" }] } }
    arr     = "[1, 2, 3]"
    notjson = "{not json"
    emptys  = ""
  }
}

resource "terraform_data" "counted" {
  count = 2
  input = count.index
}

resource "terraform_data" "each" {
  for_each = toset(["alpha", "beta"])
  input    = each.key
}

module "child" {
  source = "./child"
}

output "o" { value = terraform_data.a.output }
output "list" { value = [1, 2, 3] }
output "obj" { value = { a = 1, b = "two" } }
output "s" {
  value     = "secret"
  sensitive = true
}
output "needs-quote" { value = "q" }
