package monitorclient

import (
	"fmt"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/grpc/mem"
)

// registerCodec is the gRPC codec of RegisterResource, the call a component
// makes for each child. Its property values go straight between
// property.Map and protobuf bytes (encodeRegisterResourceRequest,
// decodeRegisterResourceResponse), without structpb trees: a request goes
// out already encoded, a large string in a segment of its own, and an
// answer is decoded from the frames gRPC received it in. On
// the wire nothing changes: it is the proto codec's content type, and the
// engine reads the same bytes.
type registerCodec struct{}

// rawMessage is a message's protobuf encoding, in segments; one holds the
// only segment of most.
type rawMessage struct {
	segs [][]byte
	one  [1][]byte
}

// registerAnswer is a decoded RegisterResourceResponse, or why it could not
// be decoded: the caller reports that, not gRPC. inputs are the request's,
// which the outputs share their strings with where equal.
type registerAnswer struct {
	inputs property.Map
	resp   RegisterResourceResponse
	err    error
}

func (registerCodec) Name() string { return "proto" }

func (registerCodec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(*rawMessage)
	if !ok {
		return nil, fmt.Errorf("register codec: cannot send a %T", v)
	}
	out := make(mem.BufferSlice, len(m.segs))
	for i, seg := range m.segs {
		out[i] = mem.SliceBuffer(seg)
	}
	return out, nil
}

// Unmarshal decodes the answer from the pieces gRPC received it in, so
// that a large one is not first copied into one buffer.
func (registerCodec) Unmarshal(data mem.BufferSlice, v any) error {
	a, ok := v.(*registerAnswer)
	if !ok {
		return fmt.Errorf("register codec: cannot receive into a %T", v)
	}
	var one [1][]byte
	bufs := one[:0]
	if len(data) > 1 {
		bufs = make([][]byte, 0, len(data))
	}
	for _, d := range data {
		bufs = append(bufs, d.ReadOnlyData())
	}
	a.resp, a.err = decodeRegisterResourceResponse(bufs, a.inputs)
	return nil
}

// requestBuffers recycles the buffers RegisterResource requests are
// encoded into. A buffer goes back only after a successful answer: a gRPC
// server answers a unary call once it has read the request, and gRPC's
// writer has copied the buffer into frames before any of it reached the
// server. (A server answering before reading the request would leave the
// writer copying garbage into a finished stream.)
var requestBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledRequest is the largest buffer kept for reuse; a child with
// larger inputs is rare, and its buffer is left to the GC.
const maxPooledRequest = 64 << 10

func getRequestBuffer() *[]byte { return requestBuffers.Get().(*[]byte) }

// putRequestBuffer keeps the buffer of request m, which grew from *p, for
// the next request; not that of a request in segments, which is large.
func putRequestBuffer(p *[]byte, m *rawMessage) {
	if len(m.segs) == 1 && cap(m.segs[0]) <= maxPooledRequest {
		*p = m.segs[0][:0]
		requestBuffers.Put(p)
	}
}
