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
