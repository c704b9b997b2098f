package monitorclient

import (
	"testing"

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
