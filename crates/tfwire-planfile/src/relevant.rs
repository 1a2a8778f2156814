//! Terraform's order of `relevant_attributes`.
//!
//! Terraform's `show -json` sorts the entries with Go's `sort.SliceStable` and a comparator
//! that compares the Go syntax (`%#v`) of its internal `globalref.ResourceAttr` values, but
//! of the entries at those positions in the plan file's unsorted list, while the sort moves
//! the entries of another list. Its order is therefore not sorted by anything: it is what
//! `SliceStable`'s algorithm does with those fixed answers. This module reproduces it:
//! [`go_text`] writes the `%#v` text of an entry, [`slice_stable`] runs the algorithm.

use crate::address::{Address, Key, Mode};
use core::fmt::Write as _;
use tfwire::Value;
use tfwire_plan::ctyjson::Step;

/// The order in which Go's `sort.SliceStable(x, less)` leaves the `n` elements of `x`
/// (`out[k]` is the original position of the element that ends at position `k`) when
/// `less(i, j)` answers for the positions `i` and `j` as they are at the time of the call,
/// whatever elements the sort has moved there.
///
/// The algorithm is Go's: insertion sort of blocks of 20, then `symMerge` of blocks of
/// doubling size (rotations by range swaps).
pub(crate) fn slice_stable(n: usize, less: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut s = Sorter {
        data: (0..n).collect(),
        less,
    };
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        s.insertion_sort(a, b);
        a = b;
        b += block;
    }
    s.insertion_sort(a, n);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            s.sym_merge(a, a + block, b);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            s.sym_merge(a, m, n);
        }
        block *= 2;
    }
    s.data
}

struct Sorter<L> {
    data: Vec<usize>,
    less: L,
}

impl<L: FnMut(usize, usize) -> bool> Sorter<L> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        (self.less)(i, j)
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.data.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sym_merge(&mut self, a: usize, m: usize, b: usize) {
        if m - a == 1 {
            let (mut i, mut j) = (m, b);
            while i < j {
                let h = (i + j) / 2;
                if self.less(h, a) {
                    i = h + 1;
                } else {
                    j = h;
                }
            }
            for k in a..i.saturating_sub(1) {
                self.data.swap(k, k + 1);
            }
            return;
        }
        if b - m == 1 {
            let (mut i, mut j) = (a, m);
            while i < j {
                let h = (i + j) / 2;
                if !self.less(m, h) {
                    i = h + 1;
                } else {
                    j = h;
                }
            }
            let mut k = m;
            while k > i {
                self.data.swap(k, k - 1);
                k -= 1;
            }
            return;
        }
        let mid = (a + b) / 2;
        let n = mid + m;
        let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
        let p = n - 1;
        while start < r {
            let c = (start + r) / 2;
            if !self.less(p - c, c) {
                start = c + 1;
            } else {
                r = c;
            }
        }
        let end = n - start;
        if start < m && m < end {
            self.rotate(start, m, end);
        }
        if a < start && start < mid {
            self.sym_merge(a, start, mid);
        }
        if mid < end && end < b {
            self.sym_merge(mid, end, b);
        }
    }

    fn swap_range(&mut self, a: usize, b: usize, n: usize) {
        for i in 0..n {
            self.data.swap(a + i, b + i);
        }
    }

    fn rotate(&mut self, a: usize, m: usize, b: usize) {
        let (mut i, mut j) = (m - a, b - m);
        while i != j {
            if i > j {
                self.swap_range(m - i, m, j);
                i -= j;
            } else {
                self.swap_range(m - i, m + j - i, i);
                j -= i;
            }
        }
        self.swap_range(m - i, m, i);
    }
}

/// The text Go's `fmt.Sprintf("%#v", ra)` gives for the `globalref.ResourceAttr` Terraform
/// reads from a plan file's relevant attribute (`resource`, `attr`), or `None` where tfwire
/// does not reproduce it: an index key other than a string
/// or an integer of magnitude below 2^53, a missing path, or an address Terraform refuses
/// (`[*]`, a negative key).
pub(crate) fn go_text(resource: &str, attr: Option<&[Step<'_>]>) -> Option<String> {
    let addr = Address::parse(resource).ok()?;
    let attr = attr?;
    let mut t = String::from(
        "globalref.ResourceAttr{Resource:addrs.AbsResourceInstance{targetable:addrs.targetable{}, Module:",
    );
    if addr.module.is_empty() {
        t.push_str("addrs.ModuleInstance(nil)");
    } else {
        t.push_str("addrs.ModuleInstance{");
        for (i, (name, key)) in addr.module.iter().enumerate() {
            if i > 0 {
                t.push_str(", ");
            }
            t.push_str("addrs.ModuleInstanceStep{Name:");
            quote(&mut t, name)?;
            t.push_str(", InstanceKey:");
            instance_key(&mut t, key)?;
            t.push('}');
        }
        t.push('}');
    }
    t.push_str(
        ", Resource:addrs.ResourceInstance{referenceable:addrs.referenceable{}, \
         Resource:addrs.Resource{referenceable:addrs.referenceable{}, Mode:",
    );
    // Go's `ResourceMode` is a rune: 'M', 'D', 'E', written as numbers.
    let mode = match addr.mode {
        Mode::Managed => b'M',
        Mode::Data => b'D',
        Mode::Ephemeral => b'E',
    };
    let _ = write!(t, "{mode}, Type:");
    quote(&mut t, addr.type_name)?;
    t.push_str(", Name:");
    quote(&mut t, addr.name)?;
    t.push_str("}, Key:");
    instance_key(&mut t, &addr.key)?;
    t.push_str("}}, Attr:cty.Path{");
    for (i, s) in attr.iter().enumerate() {
        if i > 0 {
            t.push_str(", ");
        }
        match s {
            Step::Attr(n) => {
                t.push_str("cty.GetAttrStep{Name:");
                quote(&mut t, n)?;
            }
            Step::Index(v) => {
                t.push_str("cty.IndexStep{Key:");
                match v.unwrap_dynamic() {
                    Value::String(s) => {
                        t.push_str("cty.StringVal(");
                        quote(&mut t, s)?;
                        t.push(')');
                    }
                    Value::Number(n) => {
                        t.push_str("cty.NumberIntVal(");
                        go_float_v(&mut t, n.to_i64().filter(|i| i.unsigned_abs() < 1 << 53)?);
                        t.push(')');
                    }
                    _ => return None,
                }
            }
        }
        t.push('}');
    }
    t.push_str("}}");
    Some(t)
}

/// An instance key as `%#v` writes Go's `addrs.InstanceKey` interface.
fn instance_key(t: &mut String, key: &Key) -> Option<()> {
    match key {
        Key::None => t.push_str("addrs.InstanceKey(nil)"),
        Key::Int(i) if *i >= 0 => {
            let _ = write!(t, "{i}");
        }
        Key::Str(s) => quote(t, s)?,
        Key::Int(_) | Key::Unknown => return None,
    }
    Some(())
}

/// Go's `strconv.Quote` of a string (characters Go does not call printable escaped by the
/// Unicode tables of the Go that builds the clients).
fn quote(t: &mut String, s: &str) -> Option<()> {
    tfwire_json::escape::write_go_quoted(t, s).ok()
}

/// An integer as Go's `%v` writes a `*big.Float` holding it exactly (`'g'`, shortest): the
/// digits without trailing zeros, in exponent form from 10^6 on (`1e+06`, `1.2e+06`).
fn go_float_v(t: &mut String, i: i64) {
    if i < 0 {
        t.push('-');
    }
    let all = i.unsigned_abs().to_string();
    let digits = all.trim_end_matches('0');
    if digits.is_empty() {
        t.push('0');
        return;
    }
    let exp = all.len() - 1;
    if exp < 6 {
        t.push_str(&all);
        return;
    }
    t.push_str(&digits[..1]);
    if digits.len() > 1 {
        t.push('.');
        t.push_str(&digits[1..]);
    }
    let _ = write!(t, "e+{exp:02}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `sort.SliceStable(perm, func(i, j int) bool { return keys[i] < keys[j] })` on
    /// `perm = 0..n`, `keys[i] = (i*37 + 11) % 23`, printed by Go 1.26: `n` above 20 runs
    /// `symMerge` and its rotations, with answers that do not follow the moved elements.
    #[test]
    fn slice_stable_follows_go() {
        let go: &[(usize, &str)] = &[
            (5, "1 0 3 2 4"),
            (20, "1 0 3 2 6 5 4 8 7 11 10 9 14 13 12 16 15 19 18 17"),
            (21, "1 0 3 2 6 5 4 8 7 11 10 9 14 13 12 16 15 19 18 17 20"),
            (
                45,
                "1 0 21 20 24 23 22 26 25 29 28 27 31 30 34 33 32 37 36 35 3 2 6 5 4 42 41 8 7 \
                 11 10 9 40 14 13 12 16 15 19 18 17 39 38 44 43",
            ),
            (
                100,
                "1 0 42 41 40 60 44 62 61 65 64 63 67 66 70 69 68 72 71 75 21 20 24 23 22 74 \
                 73 80 83 82 81 85 84 88 87 86 90 43 89 93 92 47 46 91 95 94 98 97 96 26 25 \
                 45 49 48 52 51 77 76 50 29 28 27 31 30 34 33 32 54 53 37 36 35 3 2 57 56 55 \
                 59 58 6 5 4 8 7 11 10 9 14 13 12 16 15 19 18 17 39 99 38 79 78",
            ),
        ];
        let key = |i: usize| (i * 37 + 11) % 23;
        for (n, expected) in go {
            let got = slice_stable(*n, |i, j| key(i) < key(j));
            let expected: Vec<usize> = expected
                .split_whitespace()
                .map(|d| d.parse().unwrap())
                .collect();
            assert_eq!(got, expected, "n = {n}");
        }
    }

    /// Terraform's order of 33 entries (modules, keys, modes, string and number index
    /// keys, repeated entries), as Go 1.26 gives it for the `globalref.ResourceAttr` values
    /// Terraform's packages build from them and the comparator of Terraform's `jsonplan`.
    #[test]
    fn terraform_order_follows_go() {
        // `address|steps`: a step is an attribute, `#N` a number index, `'S` a string index.
        let entries = [
            "tfwire_item.b|id",
            "module.counted[1].tfwire_item.in_box|id",
            "data.t.x|name,#0",
            "module.each[\"large\"].tfwire_item.in_box|id",
            "tfwire_item.a[0]|tags,'env",
            "tfwire_item.a[10]|tags,'env",
            "tfwire_item.a[2]|tags,'Env",
            "module.counted.tfwire_item.in_box|id",
            "ephemeral.e.s|value",
            "module.each[\"small\"].tfwire_item.in_box|id",
            "tfwire_item.b|",
            "module.m.module.n[3].data.d.x[\"q\"]|rule,#1000000,port",
            "tfwire_item.a[1]|list,#120",
            "tfwire_item.a[1]|list,#-7",
            "tfwire_item.a[1]|list,#1200000",
            "module.counted[0].tfwire_item.in_box|id",
            "tfwire_item.z[\"a b\"]|x",
            "tfwire_item.z[\"a\\\"b\"]|x",
            "module.each[\"large\"].module.leaf[0].tfwire_shapes.leaf|id",
            "module.each.tfwire_item.in_box|id",
            "tfwire_item.b|id",
            "tfwire_item.b|name",
            "data.t.x|name,#10",
            "tfwire_item.y_1|m,'k\n",
            "tfwire_item.y-1|m,'k",
            "module.a_b.tfwire_item.c|d",
            "module.a-b.tfwire_item.c|d",
            "module.a.tfwire_item.c|d",
            "tfwire_item.c|d,e,f",
            "tfwire_item.c|d,e",
            "tfwire_item.c|d,'e",
            "data.t.x|name,#9",
            "tfwire_item.a[0]|tags",
        ];
        let go = "0 2 1 4 3 5 6 8 7 20 22 21 24 23 28 27 10 9 13 12 11 14 16 15 26 25 29 31 30 \
                  32 17 18 19";
        let texts: Vec<String> = entries
            .iter()
            .map(|e| {
                let (addr, steps) = e.split_once('|').unwrap();
                let steps: Vec<Step<'_>> = steps
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        if let Some(n) = s.strip_prefix('#') {
                            Step::Index(Value::Number(tfwire::Number::Int(n.parse().unwrap())))
                        } else if let Some(k) = s.strip_prefix('\'') {
                            Step::Index(Value::String(k))
                        } else {
                            Step::Attr(s)
                        }
                    })
                    .collect();
                go_text(addr, Some(&steps)).unwrap()
            })
            .collect();
        let got = slice_stable(texts.len(), |i, j| texts[i] < texts[j]);
        let go: Vec<usize> = go.split_whitespace().map(|d| d.parse().unwrap()).collect();
        assert_eq!(got, go);
    }

    /// Texts checked against Go's `fmt.Sprintf("%#v", ...)` of values built with
    /// Terraform's `addrs.ParseAbsResourceInstanceStr` and `cty` paths.
    #[test]
    fn go_text_matches_go() {
        let steps = [
            Step::Attr("x"),
            Step::Index(Value::String("k\"\n")),
            Step::Index(Value::Number(tfwire::Number::Int(3))),
        ];
        assert_eq!(
            go_text("aws_instance.a", Some(&steps)).unwrap(),
            "globalref.ResourceAttr{Resource:addrs.AbsResourceInstance{targetable:addrs.targetable{}, \
             Module:addrs.ModuleInstance(nil), Resource:addrs.ResourceInstance{referenceable:addrs.referenceable{}, \
             Resource:addrs.Resource{referenceable:addrs.referenceable{}, Mode:77, Type:\"aws_instance\", Name:\"a\"}, \
             Key:addrs.InstanceKey(nil)}}, Attr:cty.Path{cty.GetAttrStep{Name:\"x\"}, \
             cty.IndexStep{Key:cty.StringVal(\"k\\\"\\n\")}, cty.IndexStep{Key:cty.NumberIntVal(3)}}}"
        );
        assert_eq!(
            go_text("module.m[\"x\"].module.n[2].data.t_t.b[0]", Some(&[])).unwrap(),
            "globalref.ResourceAttr{Resource:addrs.AbsResourceInstance{targetable:addrs.targetable{}, \
             Module:addrs.ModuleInstance{addrs.ModuleInstanceStep{Name:\"m\", InstanceKey:\"x\"}, \
             addrs.ModuleInstanceStep{Name:\"n\", InstanceKey:2}}, Resource:addrs.ResourceInstance{referenceable:addrs.referenceable{}, \
             Resource:addrs.Resource{referenceable:addrs.referenceable{}, Mode:68, Type:\"t_t\", Name:\"b\"}, \
             Key:0}}, Attr:cty.Path{}}"
        );
        let text = go_text("module.m.ephemeral.t.b[\"a\\tb\\u007f\\u0001\"]", Some(&[])).unwrap();
        assert!(text.contains(
            "Module:addrs.ModuleInstance{addrs.ModuleInstanceStep{Name:\"m\", InstanceKey:addrs.InstanceKey(nil)}}"
        ));
        assert!(text.contains("Mode:69, Type:\"t\", Name:\"b\"}, Key:\"a\\tb\\x7f\\x01\"}}"));
        for (n, go) in [
            (0, "0"),
            (-5, "-5"),
            (120, "120"),
            (999_999, "999999"),
            (1_000_000, "1e+06"),
            (1_200_000, "1.2e+06"),
            (-1_234_567, "-1.234567e+06"),
        ] {
            let mut t = String::new();
            go_float_v(&mut t, n);
            assert_eq!(t, go, "{n}");
        }
        assert_eq!(go_text("t.b[*]", Some(&[])), None);
        assert_eq!(go_text("t.b", None), None);
        // Outside ASCII, strconv.Quote keeps what Go calls printable and escapes the rest.
        let text = go_text("t.é[\"a\u{a0}b\u{2028}\u{1FAE9}\"]", Some(&[])).unwrap();
        assert!(
            text.contains("Type:\"t\", Name:\"é\"}, Key:\"a\\u00a0b\\u2028\\U0001fae9\"}}"),
            "{text}"
        );
    }
}
