package monitorclient

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// An answer gRPC hands over in several buffers decodes as one in a single
// buffer does.
func TestRegisterCodecUnmarshalsSplitAnswers(t *testing.T) {
	t.Parallel()
	b, err := proto.Marshal(&pulumirpc.RegisterResourceResponse{
		Urn: customURN, Id: "i-1",
		Object: mustStruct(t, map[string]any{"a": "x", "n": 2.0}),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := RegisterResourceResponse{URN: customURN, ID: "i-1", Outputs: pmap(map[string]property.Value{
		"a": str("x"), "n": property.New(2.0),
	})}
	for _, cut := range []int{1, len(b) / 2, len(b) - 1} {
		var a registerAnswer
		data := mem.BufferSlice{mem.SliceBuffer(b[:cut]), mem.SliceBuffer(b[cut:])}
		if err := (registerCodec{}).Unmarshal(data, &a); err != nil || a.err != nil {
			t.Fatalf("cut at %d: %v, %v", cut, err, a.err)
		}
		assertResponse(t, a.resp, want)
	}
	if err := (registerCodec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, &pulumirpc.RegisterResourceResponse{}); err == nil {
		t.Error("Unmarshal into a pulumirpc message: want an error")
	}
}

// A large output equal to the input at its place, plain or secret, is the
// input's string, not a copy of gRPC's buffers; one that differs is read
// as it is.
func TestRegisterAnswerSharesEchoedInputs(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 100<<10)
	other := strings.Repeat("x", 100<<10-1) + "y"
	inputs := pmap(map[string]property.Value{
		"content": property.New(big), "secret": property.New(big).WithSecret(true), "changed": property.New(big),
		"list": property.New([]property.Value{property.New(big)}),
	})
	outputs := mustStruct(t, map[string]any{
		"content": strings.Clone(big), "secret": map[string]any{sigKey: secretSig, "value": strings.Clone(big)},
		"changed": other, "list": []any{strings.Clone(big)},
	})
	b, err := proto.Marshal(&pulumirpc.RegisterResourceResponse{Urn: customURN, Id: "i-1", Object: outputs})
	if err != nil {
		t.Fatal(err)
	}
	var data mem.BufferSlice
	for len(b) > 16<<10 {
		data, b = append(data, mem.SliceBuffer(b[:16<<10])), b[16<<10:]
	}
	data = append(data, mem.SliceBuffer(b))
	a := registerAnswer{inputs: inputs}
	if err := (registerCodec{}).Unmarshal(data, &a); err != nil || a.err != nil {
		t.Fatalf("%v, %v", err, a.err)
	}
	out := a.resp.Outputs
	same := func(v property.Value) bool {
		return v.IsString() && unsafe.StringData(v.AsString()) == unsafe.StringData(big)
	}
	if c := out.Get("content"); !same(c) || c.Secret() {
		t.Errorf("content: shared %v, secret %v", same(c), c.Secret())
	}
	if s := out.Get("secret"); !same(s) || !s.Secret() {
		t.Errorf("secret: shared %v, secret %v", same(s), s.Secret())
	}
	if l := out.Get("list"); !l.IsArray() || l.AsArray().Len() != 1 || !same(l.AsArray().Get(0)) {
		t.Errorf("list: %v", l.IsArray())
	}
	if c := out.Get("changed"); !c.IsString() || c.AsString() != other {
		t.Errorf("changed: got a different string")
	}
	assertResponse(t, RegisterResourceResponse{URN: a.resp.URN, ID: a.resp.ID}, RegisterResourceResponse{URN: customURN, ID: "i-1"})
}
