package tfvalue

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/vmihailenco/msgpack/v5"
)

// MsgPack is v, a value of the block's type, encoded as the plugin
// protocol sends it: the bytes tftypes writes (v.MarshalMsgPack), but for
// the order of a map's keys, which this sorts. tftypes builds an attribute
// path at every step, most of its cost; this walks the block's shape.
// A value of a dynamic position, or one the shape does not fit, is left
// to tftypes.
func (b *Block) MsgPack(v tftypes.Value) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	if err := encode(enc, b.shape, v); err != nil {
		// tftypes says what is wrong, in its words.
		return v.MarshalMsgPack(b.shape.typ) //lint:ignore SA1019 the protocol's encoding, as tfprotov6.NewDynamicValue writes it
	}
	return buf.Bytes(), nil
}

var errShape = errors.New("the value does not fit the shape")

// unknown is tftypes' encoding of an unknown value.
var unknown = msgpack.RawMessage{0xd4, 0, 0}

func encode(enc *msgpack.Encoder, s *shape, v tftypes.Value) error {
	if s.kind == kDynamic || s.kind == kInvalid {
		b, err := v.MarshalMsgPack(s.typ) //lint:ignore SA1019 the protocol's encoding, as tfprotov6.NewDynamicValue writes it
		if err != nil {
			return err
		}
		return enc.Encode(msgpack.RawMessage(b))
	}
	if !v.IsKnown() {
		return enc.Encode(unknown)
	}
	if v.IsNull() {
		return enc.EncodeNil()
	}
	switch s.kind {
	case kString:
		var x string
		if err := v.As(&x); err != nil {
			return err
		}
		return enc.EncodeString(x)
	case kBool:
		var x bool
		if err := v.As(&x); err != nil {
			return err
		}
		return enc.EncodeBool(x)
	case kNumber:
		var n big.Float
		if err := v.As(&n); err != nil {
			return err
		}
		return encodeNumber(enc, &n)
	case kList, kSet, kTuple:
		var xs []tftypes.Value
		if err := v.As(&xs); err != nil {
			return err
		}
		if s.kind == kTuple && len(xs) != len(s.elems) {
			return errShape
		}
		if err := enc.EncodeArrayLen(len(xs)); err != nil {
			return err
		}
		for i, x := range xs {
			es := s.elem
			if s.kind == kTuple {
				es = s.elems[i]
			}
			if err := encode(enc, es, x); err != nil {
				return err
			}
		}
		return nil
	case kMap:
		var xs map[string]tftypes.Value
		if err := v.As(&xs); err != nil {
			return err
		}
		if err := enc.EncodeMapLen(len(xs)); err != nil {
			return err
		}
		keys := make([]string, 0, len(xs))
		for k := range xs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := enc.EncodeString(k); err != nil {
				return err
			}
			if err := encode(enc, s.elem, xs[k]); err != nil {
				return err
			}
		}
		return nil
	case kObject:
		var xs map[string]tftypes.Value
		if err := v.As(&xs); err != nil {
			return err
		}
		ot, ok := s.typ.(tftypes.Object)
		if !ok || len(ot.AttributeTypes) != len(s.obj.order) {
			return errShape
		}
		if err := enc.EncodeMapLen(len(s.obj.order)); err != nil {
			return err
		}
		for _, f := range s.obj.order { // sorted by Terraform name, as tftypes writes them
			x, ok := xs[f.tf]
			if !ok {
				return errShape
			}
			if err := enc.EncodeString(f.tf); err != nil {
				return err
			}
			if err := encode(enc, f.shape, x); err != nil {
				return err
			}
		}
		return nil
	}
	return errShape
}

// encodeNumber writes a number as tftypes does: an integer int64 holds as
// an integer, another number float64 holds exactly as a float64, any
// other as its decimal text.
func encodeNumber(enc *msgpack.Encoder, n *big.Float) error {
	if n.IsInf() {
		return enc.EncodeFloat64(math.Inf(n.Sign()))
	}
	if i, acc := n.Int64(); acc == big.Exact {
		return enc.EncodeInt(i)
	}
	if f, acc := n.Float64(); acc == big.Exact && !n.IsInt() {
		return enc.EncodeFloat64(f)
	}
	return enc.EncodeString(n.Text('f', -1))
}
