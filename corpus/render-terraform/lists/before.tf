# Values of a dynamic attribute (diffed as plain JSON) that Terraform and OpenTofu align
# differently: lists of the same length, reorderings, insertions, multi-line strings and
# strings that hold JSON.
resource "terraform_data" "lists" {
  input = {
    same_length = ["a", "b", "c", "d"]
    reordered   = ["a", "b", "c"]
    grown       = ["a", "b", "c"]
    shrunk      = ["a", "b", "c", "d"]
    objects     = [{ k = "a" }, { k = "b" }]
    nested      = [["a", "b"], ["c"]]
    empty       = ["", "x"]
    text        = "one\ntwo\nthree\nfour\n"
    text_grown  = "one\ntwo\n"
    json        = "{\"a\": 1, \"b\": [1, 2]}"
    json_tail   = "[1, 2] and more"
  }
}

resource "terraform_data" "text" {
  input = "first line\nsecond line\nthird line\n"
}
