variable "la" {
  type    = list(any)
  default = [1, "a", true]
}
variable "ma" {
  type    = map(any)
  default = { a = 1, b = "x", c = null }
}
variable "sa" {
  type    = set(any)
  default = ["b", 1, "a"]
}
variable "ln" {
  type    = list(any)
  default = [2, 1]
}
variable "lo" {
  type    = list(any)
  default = [{ a = 1 }, { a = 2 }]
}
variable "nested" {
  type    = map(list(string))
  default = { k = [1, false] }
}
variable "opt" {
  type = list(object({
    name = string
    port = optional(number, 80)
  }))
  default = [{ name = "a" }, { name = "b", port = "8080" }]
}
resource "terraform_data" "d" {
  input = [var.la, var.ma, var.sa, var.ln, var.lo, var.nested, var.opt]
}
