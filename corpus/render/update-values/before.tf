resource "terraform_data" "a" {
  input = {
    list     = ["a", "b", "c", "d", "e", "f", "g"]
    multi    = "line1\nline2\nline3\nline4\n"
    policy   = jsonencode({ Version = "2012", Statement = [{ Effect = "Allow", Action = ["s3:Get*"] }] })
    ws       = jsonencode({ a = 1 })
    typechg  = "1"
    tags     = { env = "prod", team = "a", keep = "k" }
    gone     = "bye"
    same     = "same"
    objs     = [{ n = 1 }, { n = 2 }]
    tonull   = "x"
    strjson  = "plain"
  }
}
resource "terraform_data" "b" {
  input = ["x", "y"]
}
resource "terraform_data" "c" {
  input = "unchanged"
}
output "changing" { value = "old" }
output "removed" { value = "r" }
output "same" { value = "s" }
