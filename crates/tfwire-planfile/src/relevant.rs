//! The order of `relevant_attributes`: Terraform's and OpenTofu's.
//!
//! Terraform's `show -json` sorts the entries with Go's `sort.SliceStable` and a comparator
//! that compares the Go syntax (`%#v`) of its internal `globalref.ResourceAttr` values, but
//! of the entries at those positions in the plan file's unsorted list, while the sort moves
//! the entries of another list. Its order is therefore not sorted by anything: it is what
//! `SliceStable`'s algorithm does with those fixed answers. This module reproduces it:
//! [`go_text`] writes the `%#v` text of an entry, [`slice_stable`] runs the algorithm.
//!
//! OpenTofu's `show -json` sorts them with Go's `sort.Slice` by their resource address
//! (compared as Go compares strings: byte by byte). `sort.Slice` is not stable: above 12
//! entries its pattern-defeating quicksort may reorder the entries of one resource, in a
//! way that only its algorithm decides. [`slice`] runs that algorithm.

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
        by_element: false,
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

/// Go's `sort.Slice(x, less)` on `n` elements: `out[k]` is the original position of the
/// element that ends at position `k`, where `less(x, y)` compares the elements of original
/// positions `x` and `y` (Go's `less(i, j)` reading `x[i]` and `x[j]`).
///
/// The algorithm is Go 1.26's `pdqsort_func`, with the recursion limit `bits.Len(n)`:
/// insertion sort up to 12 elements, pivots by median of three or Tukey's ninther, the
/// deterministic shuffle of `breakPatterns` after an unbalanced partition, and heapsort once
/// the limit is spent. `less` need not be a consistent order: the answers decide the moves,
/// as in Go.
pub(crate) fn slice(n: usize, less: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut s = Sorter {
        data: (0..n).collect(),
        less,
        by_element: true,
    };
    // Go's `bits.Len(uint(n))`.
    let limit = (usize::BITS - n.leading_zeros()) as usize;
    s.pdqsort(0, n, limit);
    s.data
}

/// The elements being sorted (original positions) and Go's `less`.
struct Sorter<L> {
    data: Vec<usize>,
    less: L,
    /// Whether `less` is asked about the elements at the positions (`sort.Slice` with a
    /// comparator that reads the slice it sorts) or about the positions themselves
    /// (Terraform's comparator, which reads another list).
    by_element: bool,
}

/// What `choosePivot` learnt of the order of the elements it compared.
#[derive(PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

impl<L: FnMut(usize, usize) -> bool> Sorter<L> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        if self.by_element {
            (self.less)(self.data[i], self.data[j])
        } else {
            (self.less)(i, j)
        }
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

    /// Go's `pdqsort_func(data, a, b, limit)`.
    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        const MAX_INSERTION: usize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            // Many elements equal to the pivot: those equal go left, the greater right.
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already_partitioned) = self.partition(a, b, pivot);
            was_partitioned = already_partitioned;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    /// Go's `partition_func`: the pivot goes to `a`, the elements less than it to its left
    /// end, the others to the right; it returns the pivot's final position and whether
    /// nothing had to move.
    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.data.swap(a, pivot);
        // `i` and `j` are inclusive bounds; `j` may go one below `a + 1`, hence signed.
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        let at = |k: isize| k as usize;
        while i <= j && self.less(at(i), a) {
            i += 1;
        }
        while i <= j && !self.less(at(j), a) {
            j -= 1;
        }
        if i > j {
            self.data.swap(at(j), a);
            return (at(j), true);
        }
        self.data.swap(at(i), at(j));
        let (_, j) = self.cross(i + 1, j - 1, |s, k| s.less(k, a));
        self.data.swap(at(j), a);
        (at(j), false)
    }

    /// The scan both partitions end with: `i` moves right past the elements that stay on
    /// the left (`stays_left`), `j` left past the others, each pair found on the wrong
    /// sides swapped, until `i` and `j` cross; it returns them then.
    fn cross(
        &mut self,
        mut i: isize,
        mut j: isize,
        stays_left: impl Fn(&mut Self, usize) -> bool,
    ) -> (isize, isize) {
        let at = |k: isize| k as usize;
        loop {
            while i <= j && stays_left(self, at(i)) {
                i += 1;
            }
            while i <= j && !stays_left(self, at(j)) {
                j -= 1;
            }
            if i > j {
                return (i, j);
            }
            self.data.swap(at(i), at(j));
            i += 1;
            j -= 1;
        }
    }

    /// Go's `partitionEqual_func`: the elements not greater than the pivot (moved to `a`)
    /// first, the greater ones after; it returns where the greater ones start.
    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.data.swap(a, pivot);
        let (i, _) = self.cross(a as isize + 1, b as isize - 1, |s, k| !s.less(a, k));
        i as usize
    }

    /// Go's `partialInsertionSort_func`: up to 5 out-of-order pairs are fixed (none below
    /// 50 elements); true if the range ends sorted. As in Go, an element shifted left may
    /// go below `a` (the loop stops at position 1, not at `a + 1`).
    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.data.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 && self.less(j, j - 1) {
                    self.data.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b && self.less(j, j - 1) {
                    self.data.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    /// Go's `breakPatterns_func`: three elements around the middle swapped with others
    /// that a xorshift generator seeded with the length picks.
    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length < 8 {
            return;
        }
        let mut random = length as u64;
        // Go's `nextPowerOfTwo`: 1 << bits.Len(length).
        let modulus = 1u64 << (usize::BITS - length.leading_zeros());
        let middle = a + (length / 4) * 2;
        for idx in middle - 1..=middle + 1 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random & (modulus - 1)) as usize;
            if other >= length {
                other -= length;
            }
            self.data.swap(idx, a + other);
        }
    }

    /// Go's `choosePivot_func`: the middle element below 8, the median of three below 50,
    /// Tukey's ninther from 50; the hint says whether no comparison or every comparison
    /// (12) swapped.
    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        let hint = match swaps {
            0 => Hint::Increasing,
            MAX_SWAPS => Hint::Decreasing,
            _ => Hint::Unknown,
        };
        (j, hint)
    }

    /// Go's `order2_func`: the two positions, the one of the lesser element first.
    fn order2(&mut self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    /// Go's `median_func`: the position of the median of three.
    fn median(&mut self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, _) = self.order2(b, c, swaps);
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        self.data[a..b].reverse();
    }

    /// Go's `heapSort_func` on `[a, b)`: a max-heap built from the middle down, then
    /// popped into the end.
    fn heap_sort(&mut self, a: usize, b: usize) {
        let hi = b - a;
        for i in (0..=(hi - 1) / 2).rev() {
            self.sift_down(i, hi, a);
        }
        for i in (0..hi).rev() {
            self.data.swap(a, a + i);
            self.sift_down(0, i, a);
        }
    }

    /// Go's `siftDown_func`: the heap property on `[lo, hi)` of the heap rooted at `first`.
    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.data.swap(first + root, first + child);
            root = child;
        }
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

    /// An order as the Go programs print it: the original positions, space-separated.
    fn go_order(printed: &str) -> Vec<usize> {
        printed
            .split_whitespace()
            .map(|d| d.parse().unwrap())
            .collect()
    }

    /// The orders Go printed for `function` (`stable`: `sort.SliceStable`, `slice`:
    /// `sort.Slice`) in `tests/data/go-sort.txt`: comparator, `n` and the order.
    fn go_orders(function: &str) -> Vec<(&'static str, usize, Vec<usize>)> {
        let text = include_str!("../tests/data/go-sort.txt");
        let rows: Vec<_> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let (f, rest) = l.split_once(' ').unwrap();
                let (name, rest) = rest.split_once(' ').unwrap();
                let (n, order) = rest.split_once(' ').unwrap();
                let (n, order) = (n.parse().unwrap(), go_order(order));
                assert_eq!(order.len(), n, "{l}");
                (f == function).then_some((name, n, order))
            })
            .collect();
        assert!(!rows.is_empty(), "no order of {function}");
        rows
    }

    /// Go's `sort.SliceStable(perm, func(i, j int) bool { return keys[i] < keys[j] })` on
    /// `perm = 0..n`, `keys[i] = (i*37 + 11) % 23` (`mixed`), printed by Go 1.26: `n` above
    /// 20 runs `symMerge` and its rotations, with answers that do not follow the moved
    /// elements.
    #[test]
    fn slice_stable_follows_go() {
        let key = |i: usize| (i * 37 + 11) % 23;
        let go = go_orders("stable");
        assert_eq!(go.len(), 5);
        for (name, n, expected) in go {
            assert_eq!(name, "mixed");
            let got = slice_stable(n, |i, j| key(i) < key(j));
            assert_eq!(got, expected, "n = {n}");
        }
    }

    /// Go 1.26's `sort.Slice` on `n` elements `{orig: i, key: key(i, n)}` with
    /// `less(i, j) = s[i].key < s[j].key` (or the comparator named), printed as the `orig`
    /// of each final position by a Go program built with Go 1.26.8. The inputs cover the
    /// insertion sort (up to 12), median of three and ninther pivots, equal keys
    /// (`partitionEqual`), sorted and reversed input (`partialInsertionSort`, the
    /// decreasing hint), `breakPatterns` and, with comparators that are not an order
    /// (`true` always answers yes), the heapsort fallback.
    #[test]
    fn slice_follows_go() {
        let go = go_orders("slice");
        assert_eq!(go.len(), 40);
        for (name, n, expected) in go {
            let key = |i: usize| match name {
                "mod3" => i % 3,
                "sorted" => i / 4,
                "reversed" => n - i / 2,
                "mixed" => (i * 37 + 11) % 23,
                "organ" => i.min(n - i),
                "saw" => i % 17,
                _ => i,
            };
            let got = slice(n, |x, y| match name {
                "true" => true,
                "chaos" => (x * 7 + y * 13) % 5 < 2,
                _ => key(x) < key(y),
            });
            assert_eq!(got, expected, "{name} {n}");
        }
    }

    /// OpenTofu's comparator: resource addresses compared as strings (`sort.Slice` over 40
    /// entries of 5 resources, each resource's entries in Go's order, not the file's).
    #[test]
    fn opentofu_order_follows_go() {
        let addrs: Vec<String> = (0..40)
            .map(|i| format!("tfwire_item.r[{}]", (i * 7) % 5))
            .collect();
        let got = slice(addrs.len(), |x, y| addrs[x] < addrs[y]);
        let go = "20 10 35 30 0 5 25 15 28 3 8 38 33 13 18 23 26 11 1 36 6 21 16 31 34 14 24 39 19 \
                  29 9 4 7 12 22 2 32 37 17 27";
        assert_eq!(got, go_order(go));
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
        assert_eq!(got, go_order(go));
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
