// Command unicodetables writes crates/tfwire-json/src/unicode_tables.rs: the code point
// ranges behind two decisions of the clients' human renderers, asked of the code the clients
// are built from rather than typed by hand.
//
//   - GO_PRINT: the code points strconv.IsPrint accepts in the Go that runs this program
//     (the one that builds the clients: its unicode.Version is written into the file). Go's
//     %q (strconv.Quote) writes every other code point as an escape.
//   - HCL_ID_START and HCL_ID_CONTINUE: the code points hclsyntax.ValidIdentifier accepts
//     as a whole name (start) and after a first letter (continue), from the HCL module this
//     module's go.mod resolves (OpenTofu's). The renderers write a name bare when it is an
//     identifier, quoted otherwise.
//
// Usage, from e2e/: go run ./unicodetables [-out FILE] (default: the committed file).
// e2e/unicodetables/gen.sh wraps it, and gen.sh --check fails when the committed file differs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

const hclModule = "github.com/hashicorp/hcl/v2"

func main() {
	out := flag.String("out", "../crates/tfwire-json/src/unicode_tables.rs", "the Rust file to write")
	flag.Parse()

	start := ranges(func(r rune) bool { return hclsyntax.ValidIdentifier(string(r)) })
	cont := ranges(func(r rune) bool { return hclsyntax.ValidIdentifier("a" + string(r)) })
	print := ranges(strconv.IsPrint)
	if err := crossCheck(start, cont); err != nil {
		fmt.Fprintln(os.Stderr, "unicodetables:", err)
		os.Exit(1)
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "//! Code point tables of the clients' human renderers. GENERATED: do not edit; run\n")
	fmt.Fprintf(&b, "//! `e2e/unicodetables/gen.sh` (it runs `go run ./unicodetables` in `e2e/`).\n")
	fmt.Fprintf(&b, "//!\n")
	fmt.Fprintf(&b, "//! - [`GO_PRINT`]: what `strconv.IsPrint` accepts in %s (Unicode %s), so what Go's\n", runtime.Version(), unicode.Version)
	fmt.Fprintf(&b, "//!   `%%q` writes as it is; every other code point it escapes.\n")
	fmt.Fprintf(&b, "//! - [`HCL_ID_START`], [`HCL_ID_CONTINUE`]: what `hclsyntax.ValidIdentifier` accepts as a\n")
	fmt.Fprintf(&b, "//!   one-character name, and after a first letter, in %s (HCL's scanner:\n", hclVersion())
	fmt.Fprintf(&b, "//!   `(ID_Start | '_') (ID_Continue | '-')*`, its tables generated from Unicode 9.0.0's\n")
	fmt.Fprintf(&b, "//!   `DerivedCoreProperties.txt`).\n")
	fmt.Fprintf(&b, "//!\n")
	fmt.Fprintf(&b, "//! Each table is sorted, inclusive `(first, last)` ranges that neither overlap nor touch.\n")
	fmt.Fprintf(&b, "//! The data are properties from the Unicode Character Database, © Unicode, Inc., used\n")
	fmt.Fprintf(&b, "//! under the Unicode License v3 (Unicode Data Files and Software).\n")
	fmt.Fprintf(&b, "\n")
	table(&b, "GO_PRINT", "Code points `strconv.IsPrint` accepts (Go's `%q` writes them as they are).", print)
	table(&b, "HCL_ID_START", "Code points that are an HCL identifier alone.", start)
	table(&b, "HCL_ID_CONTINUE", "Code points that continue an HCL identifier (after a letter).", cont)

	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "unicodetables:", err)
		os.Exit(1)
	}
}

// ranges lists the code points (surrogates excluded: no string holds them) that in accepts.
func ranges(in func(rune) bool) [][2]rune {
	var out [][2]rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || !in(r) {
			continue
		}
		if n := len(out); n > 0 && out[n-1][1] == r-1 {
			out[n-1][1] = r
		} else {
			out = append(out, [2]rune{r, r})
		}
	}
	return out
}

// crossCheck makes sure that a name is an identifier exactly when its first character is
// in start and every other in cont, on names of two and three characters built from the
// tables' edges, so that per-character tables describe ValidIdentifier.
func crossCheck(start, cont [][2]rune) error {
	var probe []rune
	for _, t := range [][][2]rune{start, cont} {
		for _, rg := range t {
			probe = append(probe, rg[0], rg[1], rg[0]-1, rg[1]+1)
		}
	}
	in := func(t [][2]rune, r rune) bool {
		for _, rg := range t {
			if rg[0] <= r && r <= rg[1] {
				return true
			}
		}
		return false
	}
	for i, a := range probe {
		b := probe[(i*7+3)%len(probe)]
		for _, name := range [][]rune{{a, b}, {'x', a, b}, {a, '-', b}} {
			if !utf8.ValidString(string(name)) {
				continue
			}
			want := in(start, name[0])
			for _, r := range name[1:] {
				want = want && in(cont, r)
			}
			if got := hclsyntax.ValidIdentifier(string(name)); got != want {
				return fmt.Errorf("ValidIdentifier(%q) = %v, the tables say %v", string(name), got, want)
			}
		}
	}
	return nil
}

// hclVersion names the HCL module the program is built with, and its replacement if any.
func hclVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return hclModule + " (version unknown)"
	}
	for _, m := range info.Deps {
		if m.Path != hclModule {
			continue
		}
		if m.Replace != nil {
			return fmt.Sprintf("`%s` %s\n//!   (OpenTofu's replacement of `%s` %s)", m.Replace.Path, m.Replace.Version, m.Path, m.Version)
		}
		return "`" + m.Path + "` " + m.Version
	}
	return hclModule + " (version unknown)"
}

// table writes one table as a Rust constant, four ranges a line.
func table(b *bytes.Buffer, name, doc string, rs [][2]rune) {
	fmt.Fprintf(b, "/// %s %d ranges.\n#[rustfmt::skip]\npub(crate) const %s: &[(u32, u32)] = &[\n", doc, len(rs), name)
	for i, r := range rs {
		if i%4 == 0 {
			b.WriteString("    ")
		}
		fmt.Fprintf(b, "(0x%04X, 0x%04X),", r[0], r[1])
		if i%4 == 3 || i == len(rs)-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString("];\n")
}
