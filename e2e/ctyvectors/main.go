// Command ctyvectors writes conformance vectors for tfwire with the go-cty
// that OpenTofu ships (its go.mod pins the version; see ../README.md and
// corpus/conformance/UPSTREAM-README.md for the record format): random values
// of random types and refined unknowns, each encoded with go-cty's MessagePack
// and JSON encoders and decoded again by go-cty to give the expected result.
//
//	ctyvectors -seed 118 -count 1500 -out vectors-cty118.jsonl
//
// The output depends only on the flags and the go-cty version.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// suffix marks every name: the same names from older go-cty builds live in
// the other files of corpus/conformance/.
const suffix = "@cty1.18"

func main() {
	seed := flag.Int64("seed", 118, "random seed")
	count := flag.Int("count", 1500, "random vectors to write (the curated and refinement cases come on top)")
	out := flag.String("out", "vectors-cty118.jsonl", "output file")
	replayDir := flag.String("replay", "", "instead: decode the inputs of the older vector files in this directory and report what differs")
	flag.Parse()
	if *replayDir != "" {
		if err := replay(*replayDir); err != nil {
			fmt.Fprintln(os.Stderr, "ctyvectors:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*seed, *count, *out); err != nil {
		fmt.Fprintln(os.Stderr, "ctyvectors:", err)
		os.Exit(1)
	}
}

func ctyVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/zclconf/go-cty" {
				return d.Version
			}
		}
	}
	return "unknown"
}

func run(seed int64, count int, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	kinds := map[string]int{}
	tags := map[string]int{}
	seen := map[string]bool{}
	emit := func(v *vector) {
		if seen[v.name] {
			panic("two vectors named " + v.name)
		}
		seen[v.name] = true
		var b bytes.Buffer
		write(&b, v.record())
		b.WriteByte('\n')
		w.Write(b.Bytes())
		kinds[v.kind]++
		for _, t := range v.tags {
			tags[t]++
		}
	}
	for _, c := range refinedCases() {
		emit(fromValue("refined/value/"+c.name+suffix, "refined", c.ty, c.v, "refined-ext"))
	}
	for _, c := range curatedCases() {
		emit(fromValue("curated/"+c.name+suffix, "curated", c.ty, c.v))
	}
	g := newRandom(seed)
	for i := 0; i < count; i++ {
		ty := g.ty(1 + g.n(4))
		v := g.value(ty, 5, g.chance(50), false)
		emit(fromValue(fmt.Sprintf("random/%d/%05d%s", seed, i, suffix), "generated", ty, v))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: go-cty %s, seed %d\n", path, ctyVersion(), seed)
	for _, m := range []map[string]int{kinds, tags} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(os.Stderr, "  %-24s %d\n", k, m[k])
		}
	}
	return nil
}

// vector is one record of corpus/conformance/*.jsonl.
type vector struct {
	name, kind string
	ty         cty.Type
	msgpack    []byte
	jsonText   []byte // nil: none
	jsonWhyNot string
	expect     any
	jsonExpect any // nil unless decoding the JSON gives another result
	tags       []string
}

func (v *vector) record() *record {
	r := &record{}
	r.put("name", v.name)
	r.put("kind", v.kind)
	r.put("type", typeJSON(v.ty))
	r.put("msgpack_hex", hex.EncodeToString(v.msgpack))
	if v.jsonText != nil {
		var c bytes.Buffer
		if err := json.Compact(&c, v.jsonText); err != nil {
			panic(fmt.Sprintf("%s: go-cty wrote invalid JSON: %v", v.name, err))
		}
		r.put("json", raw(c.Bytes()))
		r.put("json_text", string(v.jsonText))
	} else {
		r.put("json", nil)
		r.put("json_text", nil)
		r.put("json_unavailable", v.jsonWhyNot)
	}
	r.put("expect", v.expect)
	if v.jsonExpect != nil {
		r.put("json_expect", v.jsonExpect)
	}
	r.put("tags", v.tags)
	return r
}

func typeJSON(ty cty.Type) raw {
	b, err := ctyjson.MarshalType(ty)
	if err != nil {
		panic(err)
	}
	return raw(b)
}

// try runs f, turning a panic into an error that says so.
func try[T any](f func() (T, error)) (out T, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			// go-cty names the two element types of an inconsistent
			// collection in Go's map order: keep the message stable.
			msg := fmt.Sprint(r)
			if i := strings.Index(msg, " element types ("); i >= 0 {
				msg = msg[:i+len(" element types")]
			}
			err, panicked = errors.New("panic: "+msg), true
		}
	}()
	out, err = f()
	return out, err, false
}

// result is the canonical form of a decode: the value, or an error object.
func result(ty cty.Type, v cty.Value, err error, panicked bool, n *notes) any {
	if err == nil {
		return canonical(ty, v, n)
	}
	e := obj{"error": err.Error()}
	if panicked {
		e["panic"] = true
	}
	if pe, ok := err.(cty.PathError); ok && len(pe.Path) > 0 {
		e["path"] = pathText(pe.Path)
	}
	return e
}

func pathText(p cty.Path) string {
	var b bytes.Buffer
	b.WriteString("$")
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown():
				b.WriteString("[?]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				b.WriteString("[" + s.Key.AsBigFloat().Text('f', -1) + "]")
			default:
				b.WriteString("[?]")
			}
		}
	}
	return b.String()
}

// fromValue encodes val with both of go-cty's encoders and decodes the
// MessagePack (and the JSON) again with go-cty for the expectations.
func fromValue(name, kind string, ty cty.Type, val cty.Value, extra ...string) *vector {
	v := &vector{name: name, kind: kind, ty: ty}
	mp, err, _ := try(func() ([]byte, error) { return ctymsgpack.Marshal(val, ty) })
	if err != nil {
		panic(fmt.Sprintf("%s: msgpack: %v (%#v)", name, err, val))
	}
	v.msgpack = mp
	n := newNotes(extra...)
	got, err, panicked := try(func() (cty.Value, error) { return ctymsgpack.Unmarshal(mp, ty) })
	v.expect = result(ty, got, err, panicked, n)
	decoded := err == nil
	if !decoded {
		n.tag("roundtrip-fails")
	} else {
		if text(canonical(ty, val, newNotes())) != text(v.expect) {
			n.tag("decode-changes-value")
		}
		if again, err, _ := try(func() ([]byte, error) { return ctymsgpack.Marshal(got, ty) }); err != nil || !bytes.Equal(again, mp) {
			n.tag("reencode-differs")
		}
	}
	switch {
	case !val.IsWhollyKnown():
		v.jsonWhyNot = "value contains unknowns, which JSON cannot represent"
	default:
		js, err, _ := try(func() ([]byte, error) { return ctyjson.Marshal(val, ty) })
		if err != nil {
			v.jsonWhyNot = "ctyjson.Marshal: " + err.Error()
			break
		}
		v.jsonText = js
		// Floats that stay floats through the MessagePack (1.18 writes
		// integral ones beyond int64 as decimal strings) and whose go-cty
		// text is another binary64: a reader keeping the float's value
		// writes other JSON than go-cty here.
		if decoded && floatTextChangesValue(got) {
			n.tag("json-float-changes-value")
		}
		jn := newNotes()
		jgot, err, panicked := try(func() (cty.Value, error) { return ctyjson.Unmarshal(js, ty) })
		je := result(ty, jgot, err, panicked, jn)
		if err != nil {
			n.tag("json-roundtrip-fails")
		}
		if text(je) != text(v.expect) {
			v.jsonExpect = je
			n.tag("json-expect-differs")
		}
	}
	v.tags = n.sorted()
	return v
}
