package main

// -replay: decodes the inputs of older conformance files with this go-cty and
// reports every vector whose result differs from the one recorded there (made
// by go-cty 1.12.1 or 1.16.4), noting whether a `NAME@cty1.16` record already
// carries the newer result.

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

type oldVector struct {
	Name       string          `json:"name"`
	Kind       string          `json:"kind"`
	Type       json.RawMessage `json:"type"`
	Msgpack    *string         `json:"msgpack_hex"`
	JSONText   *string         `json:"json_text"`
	JSONHex    *string         `json:"json_hex"`
	Expect     any             `json:"expect"`
	ExpectAny  []any           `json:"expect_any_of"`
	JSONExpect any             `json:"json_expect"`
	Tags       []string        `json:"tags"`
}

func loadVectors(path string) ([]oldVector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []oldVector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var v oldVector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// sameResult compares canonical results: values exactly, errors only as errors
// (messages change between versions).
func sameResult(got any, want any) bool {
	isErr := func(v any) bool { _, ok := v.(map[string]any); return ok }
	if isErr(got) || isErr(want) {
		return isErr(got) && isErr(want)
	}
	return reflect.DeepEqual(got, want)
}

func reparse(v any) any {
	var out any
	if err := json.Unmarshal([]byte(text(v)), &out); err != nil {
		panic(err)
	}
	return out
}

func replay(dir string) error {
	files := []string{"vectors.jsonl", "vectors-refined.jsonl", "bad.jsonl", "bad-refined.jsonl"}
	newer := map[string]bool{}
	if vs, err := loadVectors(filepath.Join(dir, "vectors-cty116.jsonl")); err == nil {
		for _, v := range vs {
			newer[v.Name] = true
		}
	}
	total, same := 0, 0
	var differ []string
	for _, file := range files {
		vs, err := loadVectors(filepath.Join(dir, file))
		if err != nil {
			return err
		}
		for _, v := range vs {
			ty, err := ctyjson.UnmarshalType(v.Type)
			if err != nil {
				return fmt.Errorf("%s: type: %v", v.Name, err)
			}
			var got, want any
			switch {
			case v.Msgpack != nil:
				b, _ := hex.DecodeString(*v.Msgpack)
				if isolated(v.Tags) {
					continue // decoded in a child process by ctyref: out of memory here
				}
				val, err, panicked := try(func() (cty.Value, error) { return ctymsgpack.Unmarshal(b, ty) })
				got, want = reparse(result(ty, val, err, panicked, newNotes())), v.Expect
			case v.JSONText != nil || v.JSONHex != nil:
				b := []byte{}
				if v.JSONText != nil {
					b = []byte(*v.JSONText)
				} else {
					b, _ = hex.DecodeString(*v.JSONHex)
				}
				val, err, panicked := try(func() (cty.Value, error) { return ctyjson.Unmarshal(b, ty) })
				got, want = reparse(result(ty, val, err, panicked, newNotes())), v.Expect
				if v.JSONExpect != nil {
					want = v.JSONExpect
				}
			default:
				continue
			}
			total++
			ok := sameResult(got, want)
			for _, alt := range v.ExpectAny {
				ok = ok || sameResult(got, alt)
			}
			if ok {
				same++
				continue
			}
			note := ""
			if newer[v.Name+"@cty1.16"] {
				note = " (vectors-cty116.jsonl has the newer result)"
			}
			shown, _ := json.Marshal(got)
			differ = append(differ, fmt.Sprintf("%s (%s)%s: %.160s", v.Name, file, note, shown))
		}
	}
	sort.Strings(differ)
	fmt.Printf("replayed %d inputs of %v with go-cty %s: %d give the recorded result, %d differ\n",
		total, files, ctyVersion(), same, len(differ))
	for _, d := range differ {
		fmt.Println("  " + d)
	}
	return nil
}

func isolated(tags []string) bool {
	for _, t := range tags {
		if t == "isolated" || t == "dos" {
			return true
		}
	}
	return false
}
