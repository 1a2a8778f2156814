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
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(at(i), a) {
                i += 1;
            }
            while i <= j && !self.less(at(j), a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.data.swap(at(i), at(j));
            i += 1;
            j -= 1;
        }
        self.data.swap(at(j), a);
        (at(j), false)
    }

    /// Go's `partitionEqual_func`: the elements not greater than the pivot (moved to `a`)
    /// first, the greater ones after; it returns where the greater ones start.
    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.data.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        let at = |k: isize| k as usize;
        loop {
            while i <= j && !self.less(a, at(i)) {
                i += 1;
            }
            while i <= j && self.less(a, at(j)) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.data.swap(at(i), at(j));
            i += 1;
            j -= 1;
        }
        at(i)
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

    /// Go 1.26's `sort.Slice` on `n` elements `{orig: i, key: key(i, n)}` with
    /// `less(i, j) = s[i].key < s[j].key` (or the comparator named), printed as the `orig`
    /// of each final position by a Go program built with Go 1.26.8. The inputs cover the
    /// insertion sort (up to 12), median of three and ninther pivots, equal keys
    /// (`partitionEqual`), sorted and reversed input (`partialInsertionSort`, the
    /// decreasing hint), `breakPatterns` and, with comparators that are not an order
    /// (`true` always answers yes), the heapsort fallback.
    #[test]
    fn slice_follows_go() {
        let go: &[(&str, usize, &str)] = &[
            ("mod3", 5, "0 3 1 4 2"),
            ("mod3", 12, "0 3 6 9 1 4 7 10 2 5 8 11"),
            ("mod3", 13, "6 3 0 9 12 1 4 7 10 2 5 8 11"),
            (
                "mod3",
                50,
                "18 48 45 3 42 39 6 36 33 9 30 27 12 0 24 15 21 25 4 19 49 16 22 1 46 13 43 40 28 \
                 37 10 31 7 34 17 26 32 29 38 5 35 11 8 41 44 2 14 47 23 20",
            ),
            (
                "mod3",
                200,
                "69 198 195 3 192 189 6 186 183 9 180 177 12 174 171 15 168 165 18 162 159 21 156 \
                 153 24 150 147 27 144 141 30 138 135 33 132 129 36 126 123 39 120 117 42 114 111 \
                 45 108 105 48 102 0 51 99 96 54 93 90 57 87 84 60 81 78 63 75 72 66 100 169 67 \
                 70 199 1 73 196 64 76 193 4 79 190 61 82 187 7 85 184 58 88 181 10 91 178 55 94 \
                 175 13 97 172 52 136 16 49 103 166 163 106 19 46 109 160 157 112 22 43 115 154 \
                 151 118 25 40 121 148 145 124 28 37 127 142 139 130 31 34 133 50 32 134 137 131 \
                 35 140 29 128 143 125 38 146 26 122 149 119 41 152 23 116 155 113 44 158 20 110 \
                 161 107 47 164 17 104 167 101 68 170 14 98 173 53 95 176 11 92 179 56 89 182 8 \
                 86 185 59 83 188 5 80 191 62 77 194 2 74 197 65 71",
            ),
            ("sorted", 5, "0 1 2 3 4"),
            ("sorted", 12, "0 1 2 3 4 5 6 7 8 9 10 11"),
            ("sorted", 13, "0 1 2 3 4 5 6 7 8 9 10 11 12"),
            (
                "sorted",
                50,
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 \
                 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49",
            ),
            (
                "sorted",
                200,
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 \
                 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 \
                 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 \
                 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 \
                 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 \
                 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 \
                 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167 \
                 168 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 \
                 188 189 190 191 192 193 194 195 196 197 198 199",
            ),
            ("reversed", 5, "4 2 3 0 1"),
            ("reversed", 12, "10 11 8 9 6 7 4 5 2 3 0 1"),
            ("reversed", 13, "12 11 10 8 9 6 7 5 4 3 2 0 1"),
            (
                "reversed",
                50,
                "49 48 47 46 45 44 43 42 40 41 38 39 37 36 34 35 33 32 31 30 29 28 26 27 25 24 23 \
                 22 21 20 19 18 17 16 14 15 13 12 11 10 8 9 7 6 5 4 3 2 0 1",
            ),
            (
                "reversed",
                200,
                "199 198 197 196 195 194 193 192 191 190 189 188 187 186 185 184 183 182 181 180 \
                 179 178 177 176 175 174 173 172 171 170 169 168 167 166 165 164 163 162 161 160 \
                 159 158 157 156 155 154 153 152 151 150 149 148 147 146 145 144 143 142 141 140 \
                 139 138 137 136 135 134 133 132 131 130 129 128 127 126 125 124 123 122 121 120 \
                 119 118 117 116 115 114 113 112 111 110 109 108 107 106 105 104 102 103 101 100 \
                 99 98 97 96 95 94 92 93 91 90 89 88 86 87 85 84 83 82 81 80 78 79 77 76 75 74 73 \
                 72 71 70 69 68 66 67 65 64 63 62 60 61 59 58 57 56 55 54 52 53 51 50 49 48 47 46 \
                 45 44 42 43 41 40 39 38 36 37 35 34 33 32 31 30 28 29 27 26 25 24 23 22 21 20 19 \
                 18 16 17 15 14 13 12 10 11 9 8 7 6 5 4 3 2 0 1",
            ),
            ("mixed", 5, "1 3 0 2 4"),
            ("mixed", 12, "1 6 11 3 8 0 5 10 2 7 4 9"),
            ("mixed", 13, "1 6 11 3 8 0 5 10 2 7 12 4 9"),
            (
                "mixed",
                50,
                "14 37 42 19 1 24 47 29 6 11 34 39 16 44 21 26 3 49 8 31 36 13 18 41 23 0 46 28 5 \
                 10 33 15 38 43 20 48 25 2 7 30 35 12 40 17 45 22 27 4 9 32",
            ),
            (
                "mixed",
                200,
                "37 175 198 129 106 83 152 14 60 65 42 111 134 180 19 88 157 70 93 162 116 139 47 \
                 1 24 185 167 75 52 29 6 98 144 121 190 11 57 34 126 149 172 80 195 103 177 131 \
                 16 62 108 85 154 39 182 21 44 113 136 67 90 159 95 164 187 141 72 26 118 49 3 8 \
                 31 169 146 54 123 192 100 77 105 13 151 59 82 197 36 128 174 87 110 156 64 133 \
                 41 18 179 69 115 161 92 184 0 138 23 46 51 5 28 189 120 143 74 97 166 33 102 56 \
                 148 79 194 125 10 171 107 84 199 38 61 15 153 176 130 20 112 43 158 135 89 181 \
                 66 163 94 48 2 186 71 25 117 140 168 7 145 191 53 99 122 76 30 150 104 196 81 12 \
                 127 173 35 58 178 40 109 155 17 132 63 86 114 160 137 68 45 22 91 183 27 96 50 \
                 73 165 4 188 142 119 9 55 193 170 78 32 124 147 101",
            ),
            ("organ", 5, "0 1 4 2 3"),
            ("organ", 12, "0 1 11 2 10 3 9 4 8 5 7 6"),
            ("organ", 13, "0 1 12 2 11 3 10 9 4 8 5 7 6"),
            (
                "organ",
                50,
                "0 49 1 2 48 3 47 4 46 5 45 6 44 7 43 42 8 9 41 10 40 11 39 12 38 13 37 36 14 15 \
                 35 34 16 33 17 32 18 19 31 20 30 21 29 22 28 23 27 24 26 25",
            ),
            (
                "organ",
                200,
                "0 1 199 2 198 3 197 4 196 5 195 6 194 7 193 192 8 9 191 190 10 11 189 12 188 13 \
                 187 14 186 185 15 184 16 183 17 182 18 19 181 180 20 21 179 22 178 23 177 24 176 \
                 25 175 26 174 27 173 28 172 29 171 170 30 169 31 168 32 167 33 34 166 165 35 164 \
                 36 37 163 38 162 39 161 160 40 159 41 158 42 43 157 156 44 45 155 46 154 47 153 \
                 48 152 49 151 150 50 51 149 148 52 53 147 54 146 145 55 56 144 143 57 142 58 141 \
                 59 60 140 61 139 62 138 63 137 136 64 65 135 66 134 133 67 68 132 69 131 70 130 \
                 71 129 72 128 73 127 74 126 125 75 76 124 77 123 78 122 79 121 80 120 119 81 118 \
                 82 117 83 84 116 85 115 114 86 87 113 88 112 89 111 110 90 91 109 108 92 107 93 \
                 94 106 105 95 96 104 97 103 98 102 99 101 100",
            ),
            ("saw", 5, "0 1 2 3 4"),
            ("saw", 12, "0 1 2 3 4 5 6 7 8 9 10 11"),
            ("saw", 13, "0 1 2 3 4 5 6 7 8 9 10 11 12"),
            (
                "saw",
                50,
                "0 34 17 1 35 18 36 2 19 20 37 3 38 21 4 5 22 39 23 40 6 24 41 7 25 42 8 43 26 9 \
                 10 44 27 11 28 45 46 29 12 13 30 47 31 14 48 15 32 49 16 33",
            ),
            (
                "saw",
                200,
                "136 51 0 153 34 68 170 187 119 102 17 85 120 154 35 137 69 103 1 171 86 52 188 \
                 18 155 138 121 53 189 87 36 19 70 104 172 2 139 37 190 105 3 122 54 88 71 20 173 \
                 156 72 123 4 191 174 89 21 55 140 157 38 106 73 5 90 39 175 158 192 56 124 141 \
                 107 22 142 176 74 108 23 57 91 159 193 125 40 6 194 58 143 177 7 24 109 160 92 \
                 41 126 75 161 42 127 8 93 25 110 76 144 178 195 59 60 145 77 111 128 196 162 179 \
                 26 43 9 94 44 95 10 61 197 112 146 163 78 129 180 27 113 130 45 28 96 62 164 181 \
                 147 79 198 11 148 63 97 80 12 29 199 182 165 46 114 131 183 132 115 98 13 30 149 \
                 64 47 81 166 167 82 116 184 133 65 14 31 150 99 48 49 66 168 15 151 32 134 185 \
                 83 100 117 101 118 84 186 67 169 50 33 135 16 152",
            ),
            ("true", 5, "4 3 2 1 0"),
            ("true", 12, "11 10 9 8 7 6 5 4 3 2 1 0"),
            ("true", 13, "11 10 9 8 7 0 5 4 3 2 1 12 6"),
            (
                "true",
                50,
                "6 49 34 10 18 26 2 40 44 7 12 16 28 8 46 21 24 0 43 32 23 45 39 17 31 13 15 29 \
                 11 37 9 27 14 41 5 25 20 22 1 42 38 48 36 47 30 33 35 4 3 19",
            ),
            (
                "true",
                200,
                "32 160 8 48 80 112 16 144 88 136 56 72 120 40 152 24 104 63 168 92 140 84 164 76 \
                 132 60 68 124 52 156 44 116 36 172 28 108 20 148 12 100 4 180 0 142 90 166 86 \
                 138 82 178 78 134 74 162 70 130 62 66 126 58 38 54 122 50 174 46 118 42 154 61 \
                 114 34 182 23 110 53 150 22 106 18 170 14 102 10 146 6 98 2 186 94 143 65 167 91 \
                 141 89 194 87 139 85 165 83 137 81 185 79 135 77 163 75 133 73 177 71 131 69 161 \
                 93 129 197 67 127 196 159 59 125 57 175 55 123 179 157 51 121 49 183 47 119 45 \
                 155 43 117 41 173 39 115 37 153 35 113 33 187 199 111 29 151 27 109 25 171 145 \
                 107 21 149 19 105 17 181 15 103 13 147 11 101 9 169 7 99 5 192 3 198 1 189 195 \
                 97 184 176 191 128 64 193 30 190 96 31 26 188 158 95",
            ),
            ("chaos", 5, "0 1 2 3 4"),
            ("chaos", 12, "0 1 2 3 4 5 6 7 8 9 10 11"),
            ("chaos", 13, "11 1 6 8 3 5 7 4 0 9 10 12 2"),
            (
                "chaos",
                50,
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 \
                 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49",
            ),
            (
                "chaos",
                200,
                "143 63 93 178 118 58 108 8 163 68 188 28 48 33 3 193 158 168 198 23 183 113 83 \
                 133 153 123 78 88 13 53 73 148 103 138 128 43 173 98 18 38 5 110 50 160 0 105 60 \
                 150 175 120 35 180 90 185 80 145 15 20 140 170 30 65 45 85 10 70 135 130 155 95 \
                 125 190 115 40 75 195 25 55 165 100 39 197 82 77 2 192 7 87 187 182 72 12 92 177 \
                 17 172 167 97 67 22 162 27 102 157 152 62 32 107 147 37 142 137 112 57 42 132 47 \
                 117 127 122 52 24 109 189 114 69 179 14 129 174 44 154 149 99 134 124 49 34 59 \
                 119 144 74 94 84 64 169 19 199 54 104 194 4 29 184 9 164 89 159 139 79 81 111 \
                 106 151 186 41 26 21 121 61 76 86 96 46 101 156 56 181 161 11 171 136 31 196 141 \
                 191 131 66 166 36 6 116 176 71 126 1 51 16 146 91",
            ),
        ];
        for (name, n, expected) in go {
            let n = *n;
            let key = |i: usize| match *name {
                "mod3" => i % 3,
                "sorted" => i / 4,
                "reversed" => n - i / 2,
                "mixed" => (i * 37 + 11) % 23,
                "organ" => i.min(n - i),
                "saw" => i % 17,
                _ => i,
            };
            let got = slice(n, |x, y| match *name {
                "true" => true,
                "chaos" => (x * 7 + y * 13) % 5 < 2,
                _ => key(x) < key(y),
            });
            let expected: Vec<usize> = expected
                .split_whitespace()
                .map(|d| d.parse().unwrap())
                .collect();
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
        let go: Vec<usize> = go.split_whitespace().map(|d| d.parse().unwrap()).collect();
        assert_eq!(got, go);
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
