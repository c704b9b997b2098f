package rpc

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/typed"
)

// Seeds: plain values, each special object, and malformed ones.
var wireSeeds = []string{
	`{}`,
	`{"a": "s", "b": 1, "c": true, "d": null, "e": [1, "x"], "f": {"g": 2}}`,
	`{"s": {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": "hunter2"}}`,
	`{"r": {"4dabf18193072939515e22adb298388d": "5cf8f73096256a8f31e491e813e4eb8e", "urn": "urn:pulumi:s::p::a:b:C::n", "id": "i"}}`,
	`{"r": {"4dabf18193072939515e22adb298388d": "5cf8f73096256a8f31e491e813e4eb8e", "id": "no-urn"}}`,
	`{"o": {"4dabf18193072939515e22adb298388d": "d0e6a833031e9bbcd3f4e8bde6ca49a4", "value": 1, "secret": true, "dependencies": ["urn:pulumi:s::p::a:b:C::n"]}}`,
	`{"o": {"4dabf18193072939515e22adb298388d": "d0e6a833031e9bbcd3f4e8bde6ca49a4", "dependencies": [3]}}`,
	`{"u": "04da6b54-80e4-46f7-96ec-b56ff0331ba9", "v": "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7"}`,
	`{"x": {"4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", "text": "asset"}}`,
	`{"x": {"4dabf18193072939515e22adb298388d": "nonsense"}}`,
}

// FuzzPropertyDecoding feeds arbitrary Structs through the host's wire
// decoding: it must reject or accept them, never panic, and whatever it
// accepts must encode back and decode again to the same values, markers
// (secret, unknown, dependencies) included.
func FuzzPropertyDecoding(f *testing.F) {
	for _, s := range wireSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s structpb.Struct
		if err := protojson.Unmarshal(data, &s); err != nil {
			return
		}
		m, err := fromWire(&s)
		if err != nil {
			return
		}
		w, err := newServer(nil).toWire(m)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it back: %v", data, err)
		}
		again, err := fromWire(w)
		if err != nil {
			t.Fatalf("decoded %s, encoded it, but cannot decode that: %v", data, err)
		}
		if !withoutDeps(property.New(m)).Equals(withoutDeps(property.New(again))) {
			t.Fatalf("decoded %s as %v; encoded and decoded again, %v", data, m, again)
		}
		if _, err := crudFromWire(&s); err != nil {
			t.Fatalf("accepted for Construct but not for CRUD: %s: %v", data, err)
		}
	})
}

// withoutDeps is v without its dependencies, which travel beside values
// on the wire (a request's or an answer's dependency map), not in them.
func withoutDeps(v property.Value) property.Value {
	switch {
	case v.IsArray():
		arr := make([]property.Value, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			arr = append(arr, withoutDeps(e))
		}
		v = property.WithGoValue(v, arr)
	case v.IsMap():
		m := map[string]property.Value{}
		for k, e := range v.AsMap().All {
			m[k] = withoutDeps(e)
		}
		v = property.WithGoValue(v, m)
	}
	return v.WithDependencies(nil)
}

type fuzzArgs struct {
	S string                 `pulumi:"s,optional"`
	N int8                   `pulumi:"n,optional"`
	U uint                   `pulumi:"u,optional"`
	F float32                `pulumi:"f,optional"`
	L []map[string][]*string `pulumi:"l,optional"`
	O *struct {
		B bool `pulumi:"b"`
	} `pulumi:"o,optional"`
	A any `pulumi:"a,optional"`
}

// FuzzTypedArgs decodes arbitrary inputs into a typed args struct: every
// mismatch must come back as an input error, never a panic. What decodes
// encodes back to what decodes to the same args; and a secret or unknown
// in the inputs is reported lost (every field is a plain one), or none.
func FuzzTypedArgs(f *testing.F) {
	for _, s := range append(wireSeeds,
		`{"s": 1, "n": 300, "u": -1, "f": 1e300}`,
		`{"l": [{"k": ["a", null, 3]}], "o": {"b": "no"}}`,
		`{"n": 1.5, "o": {}}`,
	) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s structpb.Struct
		if err := protojson.Unmarshal(data, &s); err != nil {
			return
		}
		m, err := fromWire(&s)
		if err != nil {
			return
		}
		var args fuzzArgs
		lost, err := typed.Decode(m, &args)
		if err != nil {
			cerr := core.Decode(m, &fuzzArgs{})
			if _, ok := asInputError(cerr); !ok {
				t.Fatalf("bad input %s gave a non-input error: %v", data, cerr)
			}
			return
		}
		fields := map[string]property.Value{}
		for k, e := range m.All {
			if slices.Contains(strings.Fields("s n u f l o a"), k) { // fuzzArgs' fields
				fields[k] = e
			}
		}
		v := property.New(fields)
		if v.HasSecrets() != (len(lost.Secret) > 0) || v.HasComputed() != (len(lost.Unknown) > 0) {
			t.Fatalf("decoded %s (secrets %v, unknowns %v), lost secrets %v, unknowns %v",
				data, v.HasSecrets(), v.HasComputed(), lost.Secret, lost.Unknown)
		}
		enc, err := typed.Encode(args)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode the args: %v", data, err)
		}
		var again fuzzArgs
		if lost, err := typed.Decode(enc, &again); err != nil || len(lost.Secret)+len(lost.Unknown) > 0 {
			t.Fatalf("decoded %s, encoded the args as %v, which decodes with %v, lost %v", data, enc, err, lost)
		}
		if !reflect.DeepEqual(args, again) {
			t.Fatalf("decoded %s as %+v; encoded and decoded again, %+v", data, args, again)
		}
	})
}
