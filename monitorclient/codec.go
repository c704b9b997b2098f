package monitorclient

import (
	"fmt"

	"google.golang.org/grpc/mem"
)

// rawCodec sends and receives messages already encoded: a rawMessage goes
// out as it is, and an answer is copied into a *rawMessage. RegisterResource,
// the call a component makes for each child, uses it so that its property
// values go straight between property.Map and protobuf bytes
// (encodeRegisterResourceRequest, decodeRegisterResourceResponse) without
// building structpb trees. On the wire nothing changes: it is the proto
// codec's content type, and the engine reads the same bytes.
type rawCodec struct{}

// rawMessage is a message's protobuf encoding.
type rawMessage []byte

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(rawMessage)
	if !ok {
		return nil, fmt.Errorf("raw codec: cannot send a %T", v)
	}
	return mem.BufferSlice{mem.SliceBuffer(m)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(*rawMessage)
	if !ok {
		return fmt.Errorf("raw codec: cannot receive into a %T", v)
	}
	*m = data.Materialize()
	return nil
}
