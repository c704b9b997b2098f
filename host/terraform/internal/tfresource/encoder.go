package tfresource

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
)

// encoder writes and reads a resource type's values as the protocol
// sends them.
// A request sends no value's encoding twice: a null is encoded once per
// type, a configuration once per request, and a state the provider
// answered goes back as it came.
type encoder struct {
	conv *tfvalue.Block
	null *tfprotov6.DynamicValue // shared by every request: never changed
}

func newEncoder(conv *tfvalue.Block) (encoder, error) {
	null, err := conv.MsgPack(tftypes.NewValue(conv.Type(), nil))
	if err != nil {
		return encoder{}, err
	}
	return encoder{conv: conv, null: &tfprotov6.DynamicValue{MsgPack: null}}, nil
}

// encode is v's encoding; a null one is shared.
func (e encoder) encode(v tftypes.Value) (*tfprotov6.DynamicValue, error) {
	if v.IsNull() && v.Type() != nil && v.Type().Equal(e.conv.Type()) {
		return e.null, nil
	}
	b, err := e.conv.MsgPack(v)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.DynamicValue{MsgPack: b}, nil
}

// decode is d.Unmarshal of the type; msgpack is read walking its shape.
func (e encoder) decode(d tfprotov6.DynamicValue) (tftypes.Value, error) {
	if d.JSON == nil && d.MsgPack != nil {
		return e.conv.FromMsgPack(d.MsgPack)
	}
	return d.Unmarshal(e.conv.Type())
}

// encode is v's encoding: answered, when the provider answered v in
// msgpack (the encoding Terraform itself sends), as it came.
func (r *Resource) encode(v tftypes.Value, answered *tfprotov6.DynamicValue) (*tfprotov6.DynamicValue, error) {
	if answered != nil && len(answered.MsgPack) > 0 && answered.JSON == nil {
		return answered, nil
	}
	return r.dynamic(v)
}
