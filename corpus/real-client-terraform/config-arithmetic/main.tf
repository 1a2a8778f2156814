resource "terraform_data" "z" {
  input = {
    a = -0
    b = -0.0
    c = [-0, -0.0, -(0), - 0]
    d = 0.1 + 0.2
    e = 1 / 3 * 3
    f = 2 / 4
    g = 10 % 4.5
    h = -7 % 3
    i = 1 / 0 == 2 ? 1 : 2
    j = 5 - 5
    k = 0 * -1
    l = 1.0
    m = "${-0}"
    n = 3 > 2 ? 1 : "a"
    o = [for x in [1, "a"] : x]
    p = { for x in ["a", "b"] : x => x... }
    q = [for k, v in { b = 1, a = 2 } : "${k}${v}"]
    r = [for i, v in ["x", "y"] : i]
    s = "${~ "a" ~}  b  %{~ if true ~}  c  %{~ endif ~}"
  }
}

resource "terraform_data" "more" {
  input = {
    t = 1.1 * 1.1
    u = 2 / 3
    v = 1e-7 / 3
    w = 123456789.123456789 * 987654321.987654321
    x = 10 / 4 - 0.5
    y = 1 - 0.9
    z = 1e20 / 7
  }
}

resource "terraform_data" "keyed" {
  for_each = toset(["a\u00a0b", "c\u2028d", "é", "tab\there", "ctl\u0001"])
  input    = each.key
}

resource "terraform_data" "refs" {
  input = [
    terraform_data.keyed["a\u00a0b"].id,
    terraform_data.keyed["c\u2028d"].output,
    terraform_data.keyed["é"],
    terraform_data.keyed["tab\there"].input,
    terraform_data.keyed["ctl\u0001"].input,
    terraform_data.more2.input["a\u00a0b"],
    terraform_data.more2.input["c\u2028d"],
    terraform_data.more2.input["ctl\u0001\u007f"],
  ]
}

resource "terraform_data" "more2" {
  input = { "a\u00a0b" = 1, "c\u2028d" = 2, "ctl\u0001\u007f" = 3 }
}
