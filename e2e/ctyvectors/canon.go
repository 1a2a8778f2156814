package main

// The canonical ("expect") form of a decoded go-cty value, as
// corpus/conformance/UPSTREAM-README.md ("Canonical form") defines it, and a
// small JSON writer whose output matches serde_json's compact writer.

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
)

// obj is a JSON object written with its keys sorted bytewise.
type obj map[string]any

// raw is JSON text embedded as it is.
type raw []byte

// record is a JSON object whose keys keep their insertion order.
type record struct {
	keys []string
	vals []any
}

func (r *record) put(k string, v any) {
	r.keys = append(r.keys, k)
	r.vals = append(r.vals, v)
}

// notes collects the tags met while a value is canonicalized.
type notes struct{ tags map[string]bool }

func newNotes(tags ...string) *notes {
	n := &notes{tags: map[string]bool{}}
	for _, t := range tags {
		n.tags[t] = true
	}
	return n
}

func (n *notes) tag(t string) { n.tags[t] = true }

func (n *notes) sorted() []string {
	out := []string{}
	for t := range n.tags {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// number gives a go-cty number's canonical text. The precision of the
// big.Float says where it came from: 53 bits is a binary64 (exact decimal
// expansion), up to 64 bits and integral is a msgpack integer, anything else
// was parsed from a decimal (go-cty's own shortest text).
func number(f *big.Float, n *notes) string {
	if f.IsInf() {
		n.tag("infinity")
		if f.Sign() > 0 {
			return "+Inf"
		}
		return "-Inf"
	}
	if f.Sign() == 0 {
		if f.Signbit() {
			n.tag("negative-zero")
		}
		return "0"
	}
	switch p := f.Prec(); {
	case p == 53:
		n.tag("float64")
		s := f.Text('f', 1100)
		if strings.Contains(s, ".") {
			s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
		}
		return s
	case p <= 64 && f.IsInt():
		i, _ := f.Int(nil)
		return i.String()
	default:
		return f.Text('f', -1)
	}
}

// canonical is the canonical form of v, decoded against the schema type ty.
func canonical(ty cty.Type, v cty.Value, n *notes) any {
	if ty == cty.DynamicPseudoType && v.Type() != cty.DynamicPseudoType {
		n.tag("dynamic")
		return []any{"dynamic", typeJSON(v.Type()), canonical(v.Type(), v, n)}
	}
	if !v.IsKnown() {
		n.tag("unknown")
		if r := refinements(v, n); len(r) > 0 {
			n.tag("refined")
			return []any{"unknown", r}
		}
		return []any{"unknown"}
	}
	if v.IsNull() {
		return []any{"null"}
	}
	vt := v.Type()
	switch {
	case vt == cty.String:
		s := v.AsString()
		if !utf8.ValidString(s) {
			n.tag("invalid-utf8")
			return []any{"string_hex", hex.EncodeToString([]byte(s))}
		}
		return []any{"string", s}
	case vt == cty.Number:
		return []any{"number", number(v.AsBigFloat(), n)}
	case vt == cty.Bool:
		return []any{"bool", v.True()}
	case vt.IsListType(), vt.IsSetType():
		ety := vt.ElementType()
		if (ty.IsListType() && vt.IsListType()) || (ty.IsSetType() && vt.IsSetType()) {
			ety = ty.ElementType() // the schema's: it says where values are dynamic
		}
		elems := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, canonical(ety, e, n))
		}
		if vt.IsListType() {
			return []any{"list", elems}
		}
		sort.SliceStable(elems, func(i, j int) bool { return text(elems[i]) < text(elems[j]) })
		return []any{"set", elems}
	case vt.IsMapType():
		ety := vt.ElementType()
		if ty.IsMapType() {
			ety = ty.ElementType()
		}
		out := obj{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			out[k.AsString()] = canonical(ety, e, n)
		}
		return []any{"map", out}
	case vt.IsObjectType():
		out := obj{}
		for name, aty := range vt.AttributeTypes() {
			if ty.IsObjectType() && ty.HasAttribute(name) {
				aty = ty.AttributeType(name)
			}
			out[name] = canonical(aty, v.GetAttr(name), n)
		}
		return []any{"object", out}
	case vt.IsTupleType():
		etys := vt.TupleElementTypes()
		if ty.IsTupleType() && len(ty.TupleElementTypes()) == len(etys) {
			etys = ty.TupleElementTypes()
		}
		elems := []any{}
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			elems = append(elems, canonical(etys[i], e, n))
		}
		return []any{"tuple", elems}
	}
	panic(fmt.Sprintf("canonical: value of type %#v", vt))
}

// refinements lists what go-cty's msgpack encoder would write for an unknown
// value (cty/msgpack marshalUnknownValue): nothing for a dynamic-typed one.
func refinements(v cty.Value, n *notes) obj {
	rng := v.Range()
	ty := rng.TypeConstraint()
	out := obj{}
	if ty == cty.DynamicPseudoType {
		return out
	}
	if rng.DefinitelyNotNull() {
		out["nullness"] = false
	}
	switch {
	case ty == cty.Number:
		if lo, inc := rng.NumberLowerBound(); lo.IsKnown() && lo != cty.NegativeInfinity {
			out["lower"] = []any{number(lo.AsBigFloat(), n), inc}
		}
		if hi, inc := rng.NumberUpperBound(); hi.IsKnown() && hi != cty.PositiveInfinity {
			out["upper"] = []any{number(hi.AsBigFloat(), n), inc}
		}
	case ty == cty.String:
		if p := rng.StringPrefix(); p != "" {
			out["prefix"] = p
		}
	case ty.IsCollectionType():
		if lo := rng.LengthLowerBound(); lo != 0 {
			out["len_lower"] = lo
		}
		if hi := rng.LengthUpperBound(); hi != math.MaxInt {
			out["len_upper"] = hi
		}
	}
	return out
}

// floatTextChangesValue reports whether v holds a number from a binary64
// whose go-cty text (big.Float's Text('f', -1), which ctyjson.Marshal writes)
// reads back as another binary64.
func floatTextChangesValue(v cty.Value) bool {
	found := false
	cty.Walk(v, func(_ cty.Path, x cty.Value) (bool, error) {
		if found || !x.IsKnown() || x.IsNull() || x.Type() != cty.Number {
			return !found, nil
		}
		f := x.AsBigFloat()
		if f.Prec() != 53 || f.IsInf() {
			return true, nil
		}
		want, _ := f.Float64()
		got, err := strconv.ParseFloat(f.Text('f', -1), 64)
		if err != nil || got != want {
			found = true
		}
		return !found, nil
	})
	return found
}

const hexDigits = "0123456789abcdef"

func writeString(b *bytes.Buffer, s string) {
	if !utf8.ValidString(s) {
		panic(fmt.Sprintf("JSON string not valid UTF-8: %q", s))
	}
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&15])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

func write(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case string:
		writeString(b, v)
	case raw:
		b.Write(v)
	case []string:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, e)
		}
		b.WriteByte(']')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			write(b, e)
		}
		b.WriteByte(']')
	case obj:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			write(b, v[k])
		}
		b.WriteByte('}')
	case *record:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			write(b, v.vals[i])
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("write: %T", v))
	}
}

func text(v any) string {
	var b bytes.Buffer
	write(&b, v)
	return b.String()
}
