package wire

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// checkBytes compares ReadMapBytes with proto.Unmarshal followed by
// UnmarshalMap: the same map where it reads one. canonical says b is
// proto's own encoding, which it must read wherever proto and UnmarshalMap
// do.
func checkBytes(t *testing.T, b []byte, canonical bool) {
	t.Helper()
	for _, o := range unmarshalOptions {
		got, ok := ReadMapBytes(b, o)
		var s structpb.Struct
		err := proto.Unmarshal(b, &s)
		var want property.Map
		if err == nil {
			want, err = UnmarshalMap(&s, o)
		}
		switch {
		case ok && err != nil:
			t.Fatalf("%+v: ReadMapBytes(%x) read what proto or UnmarshalMap refuse: %v", o, b, err)
		case !ok && err == nil && canonical:
			t.Fatalf("%+v: ReadMapBytes(%x) left proto's own encoding of a good map to proto", o, b)
		// NaN is not DeepEqual to itself; %#v tells nil from empty slices.
		case ok && !reflect.DeepEqual(got, want) && fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want):
			t.Fatalf("%+v: ReadMapBytes(%x)\n got: %#v\nwant: %#v", o, b, got, want)
		}
		if ok {
			checkPieces(t, b, o, got)
		}
	}
}

// checkPieces reads Struct b, which ReadMapBytes reads as want, as a
// message's field received in pieces (ReadMessageStructs): in pieces of
// several sizes, read piece by piece or as one slice, with and without
// want as the values expected.
func checkPieces(t *testing.T, b []byte, o UnmarshalOptions, want property.Map) {
	t.Helper()
	msg := protowire.AppendTag([]byte{0x48, 0x07}, valueStruct, protowire.BytesType) // field 9 first
	msg = protowire.AppendBytes(msg, b)
	msg = append(msg, 0x50, 0x01) // field 10 after
	for _, size := range []int{1, 2, 5, len(msg)} {
		var bufs [][]byte
		for rest := msg; len(rest) > 0; rest = rest[min(size, len(rest)):] {
			bufs = append(bufs, rest[:min(size, len(rest))])
		}
		for _, small := range []int{0, 3, smallSpan} {
			for _, prev := range [][]property.Map{nil, {want}} {
				s, rest, ok := readMessageStructs(newSpan(bufs), nil, o, []protowire.Number{valueStruct}, prev, small)
				got := s.Maps[0]
				switch {
				case !ok:
					t.Fatalf("%+v: pieces of %d (small %d) of %x: not read", o, size, small, msg)
				case !s.Seen[0] || fmt.Sprint(rest) != fmt.Sprint([]byte{0x48, 0x07, 0x50, 0x01}):
					t.Fatalf("%+v: pieces of %d of %x: seen %v, rest %x", o, size, msg, s.Seen[0], rest)
				case !reflect.DeepEqual(got, want) && fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want):
					t.Fatalf("%+v: pieces of %d (small %d) of %x\n got: %#v\nwant: %#v", o, size, small, msg, got, want)
				}
			}
		}
	}
}

// checkAppend compares AppendMapField with proto.Marshal of MarshalMap in
// a message's field: the same message, or the same error.
func checkAppend(t *testing.T, m property.Map, o MarshalOptions) {
	t.Helper()
	s, wantErr := MarshalMap(m, o)
	// A Value with the map as its struct_value (field 5), after a field
	// it must leave alone.
	before := []byte{0x48, 0x07} // field 9, varint 7
	b, err := AppendMapField(before, valueStruct, m, o)
	for _, segMin := range []int{1, segmentMin} {
		if _, segErr := appendMapFieldSegments(nil, before, valueStruct, m, o, segMin); fmt.Sprint(segErr) != fmt.Sprint(err) {
			t.Fatalf("%+v: AppendMapFieldSegments(%v, %d) error %v, AppendMapField's %v", o, m, segMin, segErr, err)
		}
	}
	if wantErr == nil {
		// What MarshalMap lets by and proto refuses (invalid UTF-8) must
		// fail too, though AppendMapField may say it better.
		if _, perr := proto.Marshal(s); perr != nil {
			if err == nil {
				t.Fatalf("%+v: AppendMapField(%v) wrote what proto refuses: %v", o, m, perr)
			}
			return
		}
	}
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%+v: AppendMapField(%v) error %v, want %v", o, m, err, wantErr)
	}
	if err != nil {
		return
	}
	var got, want structpb.Value
	want.Kind = &structpb.Value_StructValue{StructValue: s}
	want.ProtoReflect().SetUnknown(before)
	if err := proto.Unmarshal(b, &got); err != nil {
		t.Fatalf("%+v: AppendMapField(%v) wrote %x, which proto cannot read: %v", o, m, b, err)
	}
	if !proto.Equal(&got, &want) {
		t.Fatalf("%+v: AppendMapField(%v)\n got: %v\nwant: %v", o, m, &got, &want)
	}
	// In segments, every string its own: the same message.
	for _, segMin := range []int{1, segmentMin} {
		segs, err := appendMapFieldSegments(nil, before, valueStruct, m, o, segMin)
		if err != nil {
			t.Fatalf("%+v: AppendMapFieldSegments(%v, %d): %v", o, m, segMin, err)
		}
		var joined []byte
		for _, s := range segs {
			joined = append(joined, s...)
		}
		var gotSegs structpb.Value
		if err := proto.Unmarshal(joined, &gotSegs); err != nil || !proto.Equal(&gotSegs, &want) {
			t.Fatalf("%+v: AppendMapFieldSegments(%v, %d) wrote %x (%v)\n got: %v\nwant: %v", o, m, segMin, joined, err, &gotSegs, &want)
		}
	}
}

func encode(t testing.TB, s *structpb.Struct) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzUnmarshalBytes reads the fuzz input both as a generated Struct's
// encoding and as raw bytes.
func FuzzUnmarshalBytes(f *testing.F) {
	for _, seed := range [][]byte{{}, {5, 1, 1, 0, 0, 5}, {5, 1, 2, 2, 0, 1, 0}, {6, 1, 1, 1, 0, 5, 1, 2, 0, 4}, {4, 2, 3, 1, 6, 0, 2, 3}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkBytes(t, b, false)
		g := &gen{b}
		fields := map[string]*structpb.Value{}
		for i := 0; len(g.b) > 0 && i < 4; i++ {
			fields[fmt.Sprint("k", i)] = g.wire(0)
		}
		// The generator makes invalid UTF-8 too, which proto refuses to encode.
		if enc, err := proto.Marshal(&structpb.Struct{Fields: fields}); err == nil {
			checkBytes(t, enc, true)
		}
	})
}

// Encodings a marshaller would not write, which proto still reads.
func TestUnmarshalBytesUnusual(t *testing.T) {
	t.Parallel()
	str := func(s string) []byte {
		return encode(t, &structpb.Struct{Fields: map[string]*structpb.Value{"k": structpb.NewStringValue(s)}})
	}
	entry := func(fields ...[]byte) []byte {
		var e []byte
		for _, f := range fields {
			e = append(e, f...)
		}
		return protowire.AppendBytes(protowire.AppendTag(nil, structFields, protowire.BytesType), e)
	}
	key := func(k string) []byte {
		return protowire.AppendString(protowire.AppendTag(nil, entryKey, protowire.BytesType), k)
	}
	value := func(v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, entryValue, protowire.BytesType), v)
	}
	number := protowire.AppendFixed64(protowire.AppendTag(nil, valueNumber, protowire.Fixed64Type), math.Float64bits(1))
	text := protowire.AppendString(protowire.AppendTag(nil, valueString, protowire.BytesType), "x")
	nested := func(inner []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, valueStruct, protowire.BytesType), inner)
	}
	secret := encode(t, &structpb.Struct{Fields: map[string]*structpb.Value{
		"s": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			sig.Key: structpb.NewStringValue(sig.Secret), "value": structpb.NewStringValue("hush"),
		}}),
	}})
	for name, b := range map[string][]byte{
		"string":               str("x"),
		"unknown sentinel":     str(sig.UnknownStringValue),
		"invalid UTF-8":        entry(key("k"), value(protowire.AppendString(protowire.AppendTag(nil, valueString, protowire.BytesType), "\xff"))),
		"invalid UTF-8 key":    entry(key("\xff"), value(number)),
		"repeated key":         append(entry(key("k"), value(number)), entry(key("k"), value(text))...),
		"two kinds":            entry(key("k"), value(append(append([]byte{}, number...), text...))),
		"kind repeated":        entry(key("k"), value(append(append([]byte{}, number...), number...))),
		"struct merged":        entry(key("k"), value(append(nested(entry(key("a"), value(number))), nested(entry(key("b"), value(text)))...))),
		"no value":             entry(key("k")),
		"no key":               entry(value(number)),
		"empty value":          entry(key("k"), value(nil)),
		"key after value":      entry(value(number), key("k")),
		"unknown field":        append(protowire.AppendVarint(protowire.AppendTag(nil, 9, protowire.VarintType), 1), str("x")...),
		"truncated":            str("x")[:4],
		"secret":               secret,
		"secret nested":        entry(key("k"), value(nested(secret))),
		"null of another enum": entry(key("k"), value(protowire.AppendVarint(protowire.AppendTag(nil, valueNull, protowire.VarintType), 7))),
		"bool of 2":            entry(key("k"), value(protowire.AppendVarint(protowire.AppendTag(nil, valueBool, protowire.VarintType), 2))),
		"number as varint":     entry(key("k"), value(protowire.AppendVarint(protowire.AppendTag(nil, valueNumber, protowire.VarintType), 2))),
		"lists 300 deep":       deep(t, 300, inList),
		"lists 6000 deep":      deep(t, 6000, inList), // proto refuses
		"objects 4000 deep":    deep(t, 4000, inObject),
	} {
		canonical := name == "string" || name == "unknown sentinel" || name == "secret" || name == "lists 300 deep"
		t.Run(name, func(t *testing.T) { checkBytes(t, b, canonical) })
	}
}

func inList(v *structpb.Value) *structpb.Value {
	return structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{v}})
}

func inObject(v *structpb.Value) *structpb.Value {
	return structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"a": v}})
}

// deep encodes {"k": wrap(wrap(...("x")))}, n wraps deep.
func deep(t *testing.T, n int, wrap func(*structpb.Value) *structpb.Value) []byte {
	v := structpb.NewStringValue("x")
	for range n {
		v = wrap(v)
	}
	return encode(t, &structpb.Struct{Fields: map[string]*structpb.Value{"k": v}})
}

func BenchmarkUnmarshalBytes(b *testing.B) {
	outputs := encode(b, &structpb.Struct{Fields: map[string]*structpb.Value{
		"bucket": structpb.NewStringValue("site-bucket-1a2b3c4d"), "key": structpb.NewStringValue("pages/p17.html"),
		"content": structpb.NewStringValue("<h1>page 17</h1>"), "contentType": structpb.NewStringValue("text/html"),
		"etag": structpb.NewStringValue("0f343b0931126a20f133d67c2b018a3b"), "size": structpb.NewNumberValue(16),
		"url":  structpb.NewStringValue("mem://site-bucket-1a2b3c4d/pages/p17.html"),
		"tags": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{structpb.NewStringValue("a"), structpb.NewBoolValue(true)}}),
	}})
	o := UnmarshalOptions{Resources: true, OutputValues: true}
	b.Run("bytes", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := ReadMapBytes(outputs, o); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("proto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var s structpb.Struct
			if err := proto.Unmarshal(outputs, &s); err != nil {
				b.Fatal(err)
			}
			if _, err := UnmarshalMap(&s, o); err != nil {
				b.Fatal(err)
			}
		}
	})
}
