package rpc

import (
	"testing"

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
// accepts must encode back.
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
		if _, err := newServer(nil).toWire(m); err != nil {
			t.Fatalf("decoded %s but cannot encode it back: %v", data, err)
		}
		if _, err := crudFromWire(&s); err != nil {
			t.Fatalf("accepted for Construct but not for CRUD: %s: %v", data, err)
		}
	})
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
// mismatch must come back as an input error, never a panic.
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
		err = core.Decode(m, &args)
		if err == nil {
			if _, err := typed.Encode(args); err != nil {
				t.Fatalf("decoded %s but cannot encode the args: %v", data, err)
			}
			return
		}
		if _, ok := asInputError(err); !ok {
			t.Fatalf("bad input %s gave a non-input error: %v", data, err)
		}
	})
}
