resource "terraform_data" "a" {
  input = {
    list     = ["a", "c", "d", "x", "e", "g", "h"]
    multi    = "line1\nchanged\nline3\nline4\nline5\n"
    policy   = jsonencode({ Version = "2012", Statement = [{ Effect = "Deny", Action = ["s3:Get*", "s3:Put*"] }] })
    ws       = "{\"a\":   1}"
    typechg  = 1
    tags     = { env = "dev", team = "a", keep = "k", new = "n" }
    same     = "same"
    objs     = [{ n = 1 }, { n = 3 }]
    tonull   = null
    strjson  = jsonencode({ k = "v" })
    added    = "new"
  }
}
resource "terraform_data" "b" {
  input = ["x", "z", "y"]
}
resource "terraform_data" "c" {
  input = "unchanged"
}
output "changing" { value = "new" }
output "same" { value = "s" }
output "added" { value = { k = ["v"] } }
