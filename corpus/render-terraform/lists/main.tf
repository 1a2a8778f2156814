# Values of a dynamic attribute (diffed as plain JSON) that Terraform and OpenTofu align
# differently: lists of the same length, reorderings, insertions, multi-line strings and
# strings that hold JSON.
resource "terraform_data" "lists" {
  input = {
    same_length = ["a", "x", "c", "y"]
    reordered   = ["c", "a", "b"]
    grown       = ["a", "x", "b", "c"]
    shrunk      = ["a", "c", "d"]
    objects     = [{ k = "a" }, { k = "c" }]
    nested      = [["a", "x"], ["c"]]
    empty       = ["", "y"]
    text        = "one\n2\nthree\nfour, more\n"
    text_grown  = "one\ntwo\nthree\n"
    json        = "{\"a\": 2, \"b\": [1, 3]}"
    json_tail   = "[1, 3] and more"
  }
}

resource "terraform_data" "text" {
  input = "first line\nline two\nthird line\n"
}
