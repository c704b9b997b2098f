package tfvalue

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestMsgPackAsTftypes: Block.MsgPack writes what tftypes writes, but
// for the order of map keys: the same length, decoding to the same value,
// and the same bytes when no map has two keys.
func TestMsgPackAsTftypes(t *testing.T) {
	block := testBlock()
	b := NewBlock(block)
	typ := block.ValueType()
	compared := 0
	for seed := range uint64(500) {
		g := gen{rand.New(rand.NewPCG(seed, 3))}
		v, err := b.ToTerraform(g.object(b.shape.obj, 0))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got, err := b.MsgPack(v)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want, err := v.MarshalMsgPack(typ) //lint:ignore SA1019 what MsgPack must write
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d bytes, tftypes writes %d", seed, len(got), len(want))
		}
		back, err := tftypes.ValueFromMsgPack(got, typ) //lint:ignore SA1019 the protocol's decoding
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		theirs, err := tftypes.ValueFromMsgPack(want, typ) //lint:ignore SA1019 the protocol's decoding
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !back.Equal(theirs) {
			t.Fatalf("seed %d: decodes to\n%v\nnot\n%v", seed, back, theirs)
		}
		if !hasWideMap(v) {
			compared++
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d: bytes %x, tftypes writes %x", seed, got, want)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no value was compared byte for byte")
	}
	t.Logf("%d of 500 compared byte for byte", compared)
}

// hasWideMap reports whether v holds a map or a dynamic object of two
// keys or more, whose order tftypes leaves to Go's map iteration.
func hasWideMap(v tftypes.Value) bool {
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	var xs []tftypes.Value
	var m map[string]tftypes.Value
	switch {
	case v.As(&xs) == nil:
		for _, x := range xs {
			if hasWideMap(x) {
				return true
			}
		}
	case v.As(&m) == nil:
		if v.Type().Is(tftypes.Map{}) && len(m) > 1 {
			return true
		}
		for _, x := range m {
			if hasWideMap(x) {
				return true
			}
		}
	}
	return false
}

// TestMsgPackErrors: a value that does not fit the block fails as
// tftypes fails it.
func TestMsgPackErrors(t *testing.T) {
	block := &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "a", Type: tftypes.String, Optional: true}}}
	b := NewBlock(block)
	wrong := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"b": tftypes.String}},
		map[string]tftypes.Value{"b": tftypes.NewValue(tftypes.String, "x")})
	_, err := b.MsgPack(wrong)
	_, want := wrong.MarshalMsgPack(block.ValueType()) //lint:ignore SA1019 what MsgPack must write
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("got %v, want %v", err, want)
	}
	ok, err := b.MsgPack(tftypes.NewValue(block.ValueType(), map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}))
	if err != nil || !bytes.Equal(ok, []byte{0x81, 0xa1, 'a', 0xd4, 0, 0}) {
		t.Fatalf("got %x, %v", ok, err)
	}
}

// TestFromMsgPackAsTftypes: Block.FromMsgPack decodes what tftypes
// decodes, of the same type, from what tftypes and MsgPack write; what
// does not fit the block fails as tftypes fails it.
func TestFromMsgPackAsTftypes(t *testing.T) {
	block := testBlock()
	b := NewBlock(block)
	typ := block.ValueType()
	for seed := range uint64(500) {
		g := gen{rand.New(rand.NewPCG(seed, 4))}
		v, err := b.ToTerraform(g.object(b.shape.obj, 0))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		theirs, err := v.MarshalMsgPack(typ) //lint:ignore SA1019 what a provider sends
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ours, err := b.MsgPack(v)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, data := range [][]byte{theirs, ours} {
			want, err := tftypes.ValueFromMsgPack(data, typ) //lint:ignore SA1019 what FromMsgPack must decode
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			got, err := b.FromMsgPack(data)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if !got.Equal(want) || !got.Type().Equal(want.Type()) || got.String() != want.String() {
				t.Fatalf("seed %d: decoded\n%v\nnot\n%v", seed, got, want)
			}
		}
	}
	for _, data := range [][]byte{{}, {0x81, 0xa1, 'z', 0xc0}, {0x80}, {0xa1, 'x'}, {0x91}} {
		_, err := b.FromMsgPack(data)
		_, want := tftypes.ValueFromMsgPack(data, typ) //lint:ignore SA1019 what FromMsgPack must decode
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%x: got %v, want %v", data, err, want)
		}
	}
}

// TestFromMsgPackDuplicateAttribute: an object holding an attribute twice
// is an error, where tftypes.ValueFromMsgPack panics.
func TestFromMsgPackDuplicateAttribute(t *testing.T) {
	b := NewBlock(&tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "a", Type: tftypes.String, Optional: true}, {Name: "b", Type: tftypes.String, Optional: true}}})
	v, err := b.FromMsgPack([]byte{0x82, 0xa1, 'a', 0xc0, 0xa1, 'a', 0xc0})
	if err == nil || !strings.Contains(err.Error(), "holds an attribute twice") {
		t.Fatalf("got %v, %v", v, err)
	}
}

// TestFromMsgPackNaN: a number that is NaN, which no Terraform value
// holds, is an error naming it, where big.NewFloat panics.
func TestFromMsgPackNaN(t *testing.T) {
	b := NewBlock(&tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "n", Type: tftypes.Number, Optional: true}}})
	nan := []byte{0x81, 0xa1, 'n', 0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1} // {n: NaN as a float64}
	v, err := b.FromMsgPack(nan)
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("got %v, %v; want an error naming NaN", v, err)
	}
}
