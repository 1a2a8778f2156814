package main

// Refined unknown values (go-cty >= 1.13), made with go-cty's own refinement
// API: what OpenTofu sends for a computed value it knows something about.

import (
	"math"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

type namedValue struct {
	name string
	ty   cty.Type
	v    cty.Value
}

func refinedCases() []namedValue {
	var out []namedValue
	add := func(name string, ty cty.Type, v cty.Value) {
		out = append(out, namedValue{name, ty, v})
	}
	str := func() *cty.RefinementBuilder { return cty.UnknownVal(cty.String).Refine() }
	num := func() *cty.RefinementBuilder { return cty.UnknownVal(cty.Number).Refine() }
	i, f, d := cty.NumberIntVal, cty.NumberFloatVal, cty.MustParseNumberVal

	// not-null on every kind of type
	for _, c := range []struct {
		n  string
		ty cty.Type
	}{
		{"string", cty.String}, {"number", cty.Number}, {"bool", cty.Bool},
		{"list", cty.List(cty.String)}, {"set", cty.Set(cty.Number)}, {"map", cty.Map(cty.Bool)},
		{"object", cty.Object(map[string]cty.Type{"a": cty.String})},
		{"tuple", cty.Tuple([]cty.Type{cty.String, cty.Bool})},
	} {
		add("notnull/"+c.n, c.ty, cty.UnknownVal(c.ty).RefineNotNull())
	}
	add("notnull/dynamic-is-a-noop", cty.DynamicPseudoType, cty.DynamicVal.RefineNotNull())

	// string prefixes
	for _, c := range []struct{ n, p string }{
		{"ascii", "prefix-"}, {"url", "https://"}, {"one-char", "x"},
		{"multibyte", "日本語-"}, {"emoji", "🙂-"}, {"non-nfc", "cafe\u0301-"},
		{"combining-at-end", "cafe\u0301"}, {"quote-backslash", "a\"b\\c"}, {"control", "a\x00\n"},
		{"255-bytes", strings.Repeat("p", 255)}, {"256-bytes", strings.Repeat("p", 256)},
		{"257-bytes", strings.Repeat("p", 257)}, {"300-bytes-multibyte", strings.Repeat("é", 150)},
		{"1000-bytes", strings.Repeat("q", 1000)},
	} {
		add("string/prefix/"+c.n, cty.String, str().StringPrefix(c.p).NewValue())
		add("string/prefix-full/"+c.n, cty.String, cty.UnknownVal(cty.String).Refine().StringPrefixFull(c.p).NewValue())
		add("string/prefix-notnull/"+c.n, cty.String, cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix(c.p).NewValue())
	}

	// number bounds: integers, floats, decimals, mixed, inclusive or not
	bounds := []struct {
		n      string
		lo, hi cty.Value
	}{
		{"int", i(0), i(10)}, {"negative-int", i(-300), i(-2)}, {"int64-extremes", i(-1 << 63), i(1<<63 - 1)},
		{"uint64", cty.NumberUIntVal(1 << 63), cty.NumberUIntVal(1<<64 - 1)},
		{"float", f(0.5), f(2.25)}, {"float-inexact", f(0.1), f(0.3)}, {"float-huge", f(-1e300), f(1e300)},
		{"float-2^64", f(1 << 63), f(18446744073709551616)},
		{"decimal", d("0.1"), d("123456789012345678901234567890.5")},
		{"decimal-long", d("-" + strings.Repeat("9", 60)), d("1e-40")},
		{"mixed", i(-1), d("99.99")},
	}
	for _, b := range bounds {
		for _, inc := range []struct {
			n      string
			lo, hi bool
		}{{"inclusive", true, true}, {"exclusive", false, false}, {"half-open", true, false}} {
			n := "number/" + b.n + "/" + inc.n
			add(n+"/lower", cty.Number, num().NumberRangeLowerBound(b.lo, inc.lo).NewValue())
			add(n+"/upper", cty.Number, num().NumberRangeUpperBound(b.hi, inc.hi).NewValue())
			add(n+"/both", cty.Number, num().NumberRangeLowerBound(b.lo, inc.lo).NumberRangeUpperBound(b.hi, inc.hi).NewValue())
			add(n+"/both-notnull", cty.Number, num().NotNull().NumberRangeLowerBound(b.lo, inc.lo).NumberRangeUpperBound(b.hi, inc.hi).NewValue())
		}
	}
	add("number/infinite-bounds-are-not-written", cty.Number,
		num().NumberRangeLowerBound(cty.NegativeInfinity, true).NumberRangeUpperBound(cty.PositiveInfinity, true).NewValue())
	add("number/equal-inclusive-notnull-collapses", cty.Number, num().NotNull().NumberRangeInclusive(i(7), i(7)).NewValue())
	add("number/equal-inclusive-nullable", cty.Number, num().NumberRangeInclusive(f(7.5), f(7.5)).NewValue())
	add("number/range-inclusive", cty.Number, num().NumberRangeInclusive(i(1), i(65535)).NewValue())

	// collection length bounds
	for _, c := range []struct {
		n  string
		ty cty.Type
	}{
		{"list", cty.List(cty.String)}, {"set", cty.Set(cty.String)}, {"map", cty.Map(cty.Number)},
		{"list-of-objects", cty.List(cty.Object(map[string]cty.Type{"id": cty.String, "n": cty.Number}))},
		{"set-of-lists", cty.Set(cty.List(cty.Bool))},
	} {
		u := func() *cty.RefinementBuilder { return cty.UnknownVal(c.ty).Refine() }
		n := "collection/" + c.n
		add(n+"/lower-1", c.ty, u().CollectionLengthLowerBound(1).NewValue())
		add(n+"/lower-200", c.ty, u().CollectionLengthLowerBound(200).NewValue())
		add(n+"/upper-0", c.ty, u().CollectionLengthUpperBound(0).NewValue())
		add(n+"/upper-3", c.ty, u().CollectionLengthUpperBound(3).NewValue())
		add(n+"/upper-70000", c.ty, u().CollectionLengthUpperBound(70000).NewValue())
		add(n+"/range", c.ty, u().CollectionLengthLowerBound(2).CollectionLengthUpperBound(5).NewValue())
		add(n+"/range-notnull", c.ty, u().NotNull().CollectionLengthLowerBound(1).CollectionLengthUpperBound(4).NewValue())
		add(n+"/exact-1-notnull", c.ty, u().NotNull().CollectionLength(1).NewValue())
		add(n+"/exact-2-notnull", c.ty, u().NotNull().CollectionLength(2).NewValue())
		add(n+"/exact-3-nullable", c.ty, u().CollectionLength(3).NewValue())
		add(n+"/exact-0-notnull", c.ty, u().NotNull().CollectionLength(0).NewValue())
	}

	// refined unknowns inside known values
	res := cty.Object(map[string]cty.Type{
		"id": cty.String, "arn": cty.String, "port": cty.Number, "tags": cty.Map(cty.String),
		"ids": cty.List(cty.String), "rules": cty.Set(cty.Object(map[string]cty.Type{"cidr": cty.String, "port": cty.Number})),
		"extra": cty.DynamicPseudoType,
	})
	add("nested/planned-resource", res, cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String).RefineNotNull(),
		"arn":  cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("arn:aws:ec2:eu-west-1:").NewValue(),
		"port": num().NumberRangeInclusive(i(1), i(65535)).NewValue(),
		"tags": cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web"), "env": cty.UnknownVal(cty.String).Refine().StringPrefix("prod-").NewValue()}),
		"ids":  cty.UnknownVal(cty.List(cty.String)).Refine().NotNull().CollectionLengthLowerBound(1).NewValue(),
		"rules": cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/8"), "port": i(22)}),
			cty.ObjectVal(map[string]cty.Value{"cidr": cty.UnknownVal(cty.String).Refine().StringPrefix("10.").NewValue(), "port": num().NotNull().NumberRangeLowerBound(i(1024), true).NewValue()}),
		}),
		"extra": cty.UnknownVal(cty.String).Refine().StringPrefix("dyn-").NewValue(),
	}))
	add("nested/list-elements", cty.List(cty.String), cty.ListVal([]cty.Value{
		cty.StringVal("a"), str().StringPrefix("b").NewValue(), cty.UnknownVal(cty.String).RefineNotNull(), cty.UnknownVal(cty.String),
	}))
	add("nested/set-elements-same-refinement", cty.Set(cty.String), cty.SetVal([]cty.Value{
		str().StringPrefix("p").NewValue(), str().StringPrefix("p").NewValue(), cty.StringVal("p"),
	}))
	add("nested/map-values", cty.Map(cty.Number), cty.MapVal(map[string]cty.Value{
		"lo": num().NumberRangeLowerBound(f(0.5), false).NewValue(), "hi": num().NumberRangeUpperBound(d("1e30"), true).NewValue(),
	}))
	add("nested/tuple", cty.Tuple([]cty.Type{cty.String, cty.List(cty.Number), cty.Bool}), cty.TupleVal([]cty.Value{
		str().StringPrefix("t-").NewValue(), cty.UnknownVal(cty.List(cty.Number)).Refine().CollectionLengthUpperBound(2).NewValue(), cty.UnknownVal(cty.Bool).RefineNotNull(),
	}))
	add("nested/dynamic-position", cty.DynamicPseudoType, num().NotNull().NumberRangeLowerBound(i(0), true).NewValue())
	add("nested/dynamic-collection", cty.DynamicPseudoType, cty.UnknownVal(cty.Set(cty.String)).Refine().CollectionLengthLowerBound(3).NewValue())
	add("nested/list-of-dynamic", cty.List(cty.DynamicPseudoType), cty.ListVal([]cty.Value{
		cty.StringVal("k"), str().StringPrefix("k").NewValue(),
	}))
	add("nested/deep", cty.List(cty.Map(cty.Set(cty.List(cty.String)))), cty.ListVal([]cty.Value{cty.MapVal(map[string]cty.Value{
		"x": cty.SetVal([]cty.Value{cty.UnknownVal(cty.List(cty.String)).Refine().NotNull().CollectionLengthUpperBound(9).NewValue()}),
	})}))
	return out
}

// curatedCases are values worth a name of their own that the random ones
// meet only by chance.
func curatedCases() []namedValue {
	negZero := cty.NumberFloatVal(math.Copysign(0, -1))
	return []namedValue{
		// A cty set holds float -0 and 0 apart; both are written as the integer 0.
		{"set/negative-zero-and-zero", cty.Set(cty.Number), cty.SetVal([]cty.Value{negZero, cty.NumberIntVal(0)})},
		{"set/negative-zero-and-float-zero", cty.Set(cty.Number), cty.SetVal([]cty.Value{negZero, cty.NumberFloatVal(0)})},
		{"number/negative-zero", cty.Number, negZero},
		{"list/negative-zero-and-zero", cty.List(cty.Number), cty.ListVal([]cty.Value{negZero, cty.NumberIntVal(0)})},
	}
}
