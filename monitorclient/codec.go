package monitorclient

import (
	"fmt"
	"sync"

	"google.golang.org/grpc/mem"
)

// registerCodec is the gRPC codec of RegisterResource, the call a component
// makes for each child. Its property values go straight between
// property.Map and protobuf bytes (encodeRegisterResourceRequest,
// decodeRegisterResourceResponse), without structpb trees: a request goes
// out already encoded, and an answer is decoded from gRPC's own buffer. On
// the wire nothing changes: it is the proto codec's content type, and the
// engine reads the same bytes.
type registerCodec struct{}

// rawMessage is a message's protobuf encoding.
type rawMessage []byte

// registerAnswer is a decoded RegisterResourceResponse, or why it could not
// be decoded: the caller reports that, not gRPC.
type registerAnswer struct {
	resp RegisterResourceResponse
	err  error
}

func (registerCodec) Name() string { return "proto" }

func (registerCodec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(rawMessage)
	if !ok {
		return nil, fmt.Errorf("register codec: cannot send a %T", v)
	}
	return mem.BufferSlice{mem.SliceBuffer(m)}, nil
}

func (registerCodec) Unmarshal(data mem.BufferSlice, v any) error {
	a, ok := v.(*registerAnswer)
	if !ok {
		return fmt.Errorf("register codec: cannot receive into a %T", v)
	}
	if len(data) == 1 {
		a.resp, a.err = decodeRegisterResourceResponse(data[0].ReadOnlyData())
		return nil
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	a.resp, a.err = decodeRegisterResourceResponse(buf.ReadOnlyData())
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

// putRequestBuffer keeps b, which grew from *p, for the next request.
func putRequestBuffer(p *[]byte, b []byte) {
	if cap(b) <= maxPooledRequest {
		*p = b[:0]
		requestBuffers.Put(p)
	}
}
