package main

// Seeded random cty types and values (refined unknowns included). Every
// choice comes from one math/rand source, so a seed gives the same values.

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

type random struct {
	r *rand.Rand
	// long strings (> 64 KiB) still allowed: they keep the file small.
	longLeft int
}

func newRandom(seed int64) *random {
	return &random{r: rand.New(rand.NewSource(seed)), longLeft: 3}
}

func (g *random) n(k int) int         { return g.r.Intn(k) }
func (g *random) chance(pct int) bool { return g.r.Intn(100) < pct }

var names = []string{
	"id", "name", "tags", "size", "enabled", "rules", "port", "cidr", "arn",
	"k", "v", "x", "_", "Name", "with-dash", "dotted.name", "sp ace", "é", "日本",
	"🙂", "", "0", "type", "value",
}

// ty is a random type constraint nested at most depth levels.
func (g *random) ty(depth int) cty.Type {
	if depth <= 0 || g.chance(25) {
		switch g.n(12) {
		case 0:
			return cty.DynamicPseudoType
		case 1, 2, 3, 4:
			return cty.String
		case 5, 6, 7, 8:
			return cty.Number
		default:
			return cty.Bool
		}
	}
	switch g.n(10) {
	case 0, 1:
		return cty.List(g.ty(depth - 1))
	case 2, 3:
		return cty.Set(g.ty(depth - 1))
	case 4:
		return cty.Map(g.ty(depth - 1))
	case 5, 6, 7:
		attrs := map[string]cty.Type{}
		var optional []string
		for i, k := 0, g.n(6); i < k; i++ {
			nm := names[g.n(len(names))]
			attrs[nm] = g.ty(depth - 1)
			if g.chance(15) {
				optional = append(optional, nm)
			}
		}
		if len(optional) > 0 {
			sort.Strings(optional)
			return cty.ObjectWithOptionalAttrs(attrs, dedup(optional))
		}
		return cty.Object(attrs)
	case 8:
		return cty.DynamicPseudoType
	default:
		elems := make([]cty.Type, g.n(4))
		for i := range elems {
			elems[i] = g.ty(depth - 1)
		}
		return cty.Tuple(elems)
	}
}

func dedup(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// concrete replaces dynamic positions of ty by concrete types (most of them:
// a kept dynamic position holds only dynamic nulls and unknowns), so that the
// elements of one collection can share a type.
func (g *random) concrete(ty cty.Type, depth int) cty.Type {
	switch {
	case ty == cty.DynamicPseudoType:
		if g.chance(15) {
			return ty
		}
		return g.concrete(g.ty(min(depth, 2)), depth-1)
	case ty.IsListType():
		return cty.List(g.concrete(ty.ElementType(), depth-1))
	case ty.IsSetType():
		return cty.Set(g.concrete(ty.ElementType(), depth-1))
	case ty.IsMapType():
		return cty.Map(g.concrete(ty.ElementType(), depth-1))
	case ty.IsObjectType():
		attrs := map[string]cty.Type{}
		for _, nm := range attrNames(ty) { // in order: a seed must give one result
			attrs[nm] = g.concrete(ty.AttributeType(nm), depth-1)
		}
		return cty.Object(attrs)
	case ty.IsTupleType():
		out := []cty.Type{}
		for _, et := range ty.TupleElementTypes() {
			out = append(out, g.concrete(et, depth-1))
		}
		return cty.Tuple(out)
	}
	return ty
}

func attrNames(ty cty.Type) []string {
	out := []string{}
	for nm := range ty.AttributeTypes() {
		out = append(out, nm)
	}
	sort.Strings(out)
	return out
}

// value is a random value of type ty. uniform: the value is an element of a
// collection whose element type is ty, so dynamic positions hold only
// dynamic nulls and unknowns. unknowns: unknown (and refined) values allowed.
func (g *random) value(ty cty.Type, depth int, unknowns, uniform bool) cty.Value {
	plain := ty.WithoutOptionalAttributesDeep()
	if g.chance(6) {
		return cty.NullVal(plain)
	}
	if unknowns && g.chance(8) {
		return g.unknown(plain)
	}
	switch {
	case ty == cty.DynamicPseudoType:
		if uniform {
			if unknowns && g.chance(50) {
				return cty.DynamicVal
			}
			return cty.NullVal(cty.DynamicPseudoType)
		}
		return g.value(g.concrete(g.ty(min(depth, 3)), depth), depth-1, unknowns, false)
	case ty == cty.String:
		return cty.StringVal(g.str())
	case ty == cty.Number:
		return g.number()
	case ty == cty.Bool:
		return cty.BoolVal(g.chance(50))
	case ty.IsCollectionType():
		ety := ty.ElementType()
		cty_ := ety
		if !uniform {
			cty_ = g.concrete(ety, depth)
		}
		k := g.n(4)
		if g.chance(4) {
			k = 4 + g.n(10)
		}
		if k == 0 {
			e := cty_.WithoutOptionalAttributesDeep()
			switch {
			case ty.IsListType():
				return cty.ListValEmpty(e)
			case ty.IsSetType():
				return cty.SetValEmpty(e)
			default:
				return cty.MapValEmpty(e)
			}
		}
		if ty.IsMapType() {
			m := map[string]cty.Value{}
			for i := 0; i < k; i++ {
				m[cty.NormalizeString(g.key())] = g.value(cty_, depth-1, unknowns, true)
			}
			return cty.MapVal(m)
		}
		elems := make([]cty.Value, k)
		for i := range elems {
			elems[i] = g.value(cty_, depth-1, unknowns, true)
		}
		if ty.IsListType() {
			return cty.ListVal(elems)
		}
		return cty.SetVal(elems)
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for _, nm := range attrNames(ty) {
			at := ty.AttributeType(nm)
			if ty.AttributeOptional(nm) && g.chance(40) {
				attrs[nm] = cty.NullVal(at.WithoutOptionalAttributesDeep())
				continue
			}
			attrs[nm] = g.value(at, depth-1, unknowns, uniform)
		}
		if len(attrs) == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		elems := []cty.Value{}
		for _, et := range ty.TupleElementTypes() {
			elems = append(elems, g.value(et, depth-1, unknowns, uniform))
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(elems)
	}
	panic(fmt.Sprintf("value: type %#v", ty))
}

// unknown is an unknown of type ty, refined at random (unrefined where
// go-cty refuses the refinements drawn).
func (g *random) unknown(ty cty.Type) (out cty.Value) {
	v := cty.UnknownVal(ty)
	defer func() {
		if recover() != nil {
			out = v
		}
	}()
	if ty == cty.DynamicPseudoType || g.chance(40) {
		return v
	}
	b := v.Refine()
	if g.chance(50) {
		b = b.NotNull()
	}
	switch {
	case ty == cty.String:
		if g.chance(80) {
			b = b.StringPrefix(g.str())
		}
	case ty == cty.Number:
		lo, hi := g.number(), g.number()
		if lo.LessThan(hi).False() {
			lo, hi = hi, lo
		}
		if g.chance(70) {
			b = b.NumberRangeLowerBound(lo, g.chance(50))
		}
		if g.chance(70) {
			b = b.NumberRangeUpperBound(hi, g.chance(50))
		}
	case ty.IsCollectionType():
		lo, hi := g.n(4), g.n(8)
		if lo > hi {
			lo, hi = hi, lo
		}
		if g.chance(70) {
			b = b.CollectionLengthLowerBound(lo)
		}
		if g.chance(60) {
			b = b.CollectionLengthUpperBound(hi)
		}
	}
	return b.NewValue()
}

func (g *random) key() string {
	if g.chance(70) {
		return names[g.n(len(names))] + strconv.Itoa(g.n(4))
	}
	return g.str()
}

// Strings that are not in NFC (cty normalizes them), and some that are.
var unnormalized = []string{
	"e\u0301", "\u212b", "A\u030a", "\u2126", "\u1100\u1161\u11a8", "q\u0307\u0323",
	"\u1e9b\u0323", "\u0344", "\uf900", "o\u0308\u0304", "na\u0308ive cafe\u0301",
}

var runes = []rune{
	'a', 'b', 'Z', '9', ' ', '-', '.', '"', '\\', '/', '<', '&', '\n', '\t', '\r',
	0, 1, 0x1b, 0x7f, 'é', 'ß', 'Ω', 'Ж', 'ש', '€', '日', '語', 0x2028, 0xfeff,
	0xfffd, 0xe000, 0x1f600, 0x1f469, 0x200d, 0x1d11e, 0x10fffd, 0x0301, 0x0308,
}

func (g *random) str() string {
	switch r := g.n(100); {
	case r < 35:
		const abc = "abcdefghijklmnopqrstuvwxyz0123456789-_:/."
		b := make([]byte, g.n(24))
		for i := range b {
			b[i] = abc[g.n(len(abc))]
		}
		return string(b)
	case r < 55:
		var b strings.Builder
		for i, k := 0, 1+g.n(10); i < k; i++ {
			b.WriteRune(runes[g.n(len(runes))])
		}
		return b.String()
	case r < 62:
		return unnormalized[g.n(len(unnormalized))]
	case r < 66:
		return ""
	case r < 74:
		// around the msgpack string-length boundaries
		ls := []int{31, 32, 255, 256, 257, 65535, 65536}
		l := ls[g.n(len(ls))]
		if l > 300 {
			if g.longLeft == 0 {
				l = 300
			} else {
				g.longLeft--
			}
		}
		return strings.Repeat(string(rune('a'+g.n(26))), l)
	case r < 88:
		looks := []string{"0", "-1", "1e3", "0.5", "true", "null", "NaN", "Inf", "{}", "[]", "${x}", "%{y}"}
		return looks[g.n(len(looks))]
	default:
		return fmt.Sprintf("projects/p-%06d/zones/z%d/instances/i-%x", g.r.Int63n(1e6), g.n(9), g.r.Uint32())
	}
}

// number is a random number the way go-cty holds them: a 64-bit integer, a
// binary64, or a decimal parsed to 512 bits.
func (g *random) number() cty.Value {
	switch r := g.n(100); {
	case r < 10:
		special := []int64{0, 1, -1, 127, 128, -32, -33, 255, 256, 65535, 65536, -129, -32768, -32769,
			1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, -1 << 31, -1<<31 - 1, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1}
		return cty.NumberIntVal(special[g.n(len(special))])
	case r < 35:
		v := g.r.Int63() >> g.n(63)
		if g.chance(35) {
			v = -v
		}
		return cty.NumberIntVal(v)
	case r < 40:
		return cty.NumberUIntVal(uint64(g.r.Int63()) | 1<<63)
	case r < 58:
		// a short decimal as a float64, as providers written in Go produce them
		f, _ := strconv.ParseFloat(fmt.Sprintf("%d.%d", g.n(200000)-100000, g.n(1000)), 64)
		return cty.NumberFloatVal(f)
	case r < 66:
		specials := []float64{0.1, 0.2, 1.0 / 3, -2.5, 1e21, 1e22, -1e300, math.MaxFloat64, math.SmallestNonzeroFloat64,
			2.2250738585072014e-308, math.Ldexp(1, 64), math.Ldexp(1, 63), math.Ldexp(1, -25), math.Ldexp(1, -140),
			math.Copysign(0, -1), 9007199254740993, 1.5e-7}
		return cty.NumberFloatVal(specials[g.n(len(specials))])
	case r < 76:
		for {
			f := math.Float64frombits(g.r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return cty.NumberFloatVal(f)
			}
		}
	default:
		var b strings.Builder
		if g.chance(30) {
			b.WriteByte('-')
		}
		b.WriteByte(byte('1' + g.n(9)))
		for i, k := 0, g.n(45); i < k; i++ {
			b.WriteByte(byte('0' + g.n(10)))
		}
		s := b.String()
		if g.chance(60) {
			digits := strings.TrimPrefix(s, "-")
			cut := len(s) - g.n(len(digits))
			s = s[:cut] + "." + s[cut:] + "1"
		}
		if g.chance(25) {
			s += "e" + strconv.Itoa(g.n(81)-40)
		}
		return cty.MustParseNumberVal(s)
	}
}
