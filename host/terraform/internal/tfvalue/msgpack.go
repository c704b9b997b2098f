package tfvalue

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
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

// FromMsgPack decodes a value of the block's type as the plugin protocol
// sends it: the value tftypes.ValueFromMsgPack decodes, walking the
// block's shape instead of building an attribute path at every step. A
// value of a dynamic position is left to tftypes, as is anything this
// does not expect (an error among them, which tftypes words).
func (b *Block) FromMsgPack(data []byte) (tftypes.Value, error) {
	dec := msgpack.NewDecoder(bytes.NewReader(data))
	v, err := decode(dec, b.shape, b.shape.typ)
	if dup, ok := err.(duplicateError); ok {
		return tftypes.Value{}, dup // tftypes would panic
	}
	if err != nil {
		return fromMsgPack(data, b.shape.typ)
	}
	return v, nil
}

// fromMsgPack is tftypes' decoding, a panic of its (a NaN, an attribute
// twice in a dynamic value) an error.
func fromMsgPack(data []byte, typ tftypes.Type) (v tftypes.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = tftypes.Value{}, fmt.Errorf("a value not of the protocol's encoding: %v", p)
		}
	}()
	return tftypes.ValueFromMsgPack(data, typ) //lint:ignore SA1019 the protocol's decoding, as tfprotov6.DynamicValue.Unmarshal reads it
}

// duplicateError is an object holding an attribute twice, which
// tftypes.ValueFromMsgPack does not catch: it panics building the value.
type duplicateError struct{ typ tftypes.Type }

func (e duplicateError) Error() string {
	return fmt.Sprintf("an object of type %s holds an attribute twice", e.typ)
}

// decode reads a value of shape s, declared of type typ.
func decode(dec *msgpack.Decoder, s *shape, typ tftypes.Type) (tftypes.Value, error) {
	if s.kind == kDynamic || s.kind == kInvalid {
		raw, err := dec.DecodeRaw()
		if err != nil {
			return tftypes.Value{}, err
		}
		return fromMsgPack(raw, typ)
	}
	peek, err := dec.PeekCode()
	if err != nil {
		return tftypes.Value{}, err
	}
	if msgpcode.IsExt(peek) { // as tftypes and go-cty, every extension is an unknown
		if err := dec.Skip(); err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, tftypes.UnknownValue), nil
	}
	if peek == msgpcode.Nil {
		if err := dec.Skip(); err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, nil), nil
	}
	switch s.kind {
	case kString:
		x, err := dec.DecodeString()
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(tftypes.String, x), nil
	case kBool:
		x, err := dec.DecodeBool()
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(tftypes.Bool, x), nil
	case kNumber:
		n, err := decodeNumber(dec, peek)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(tftypes.Number, n), nil
	case kList, kSet:
		var et tftypes.Type
		switch t := typ.(type) {
		case tftypes.List:
			et = t.ElementType
		case tftypes.Set:
			et = t.ElementType
		default:
			return tftypes.Value{}, errShape
		}
		if et.Is(tftypes.DynamicPseudoType) {
			return tftypes.Value{}, errShape // tftypes infers the element type
		}
		n, err := dec.DecodeArrayLen()
		if err != nil || n < 0 {
			return tftypes.Value{}, errShape
		}
		vals := make([]tftypes.Value, n)
		for i := range vals {
			if vals[i], err = decode(dec, s.elem, et); err != nil {
				return tftypes.Value{}, err
			}
		}
		if s.kind == kList {
			return tftypes.NewValue(tftypes.List{ElementType: et}, vals), nil
		}
		if n > 0 {
			if et, err = tftypes.TypeFromElements(vals); err != nil {
				return tftypes.Value{}, err
			}
		}
		return tftypes.NewValue(tftypes.Set{ElementType: et}, vals), nil
	case kMap:
		mt, ok := typ.(tftypes.Map)
		if !ok {
			return tftypes.Value{}, errShape
		}
		n, err := dec.DecodeMapLen()
		if err != nil || n < 0 {
			return tftypes.Value{}, errShape
		}
		vals := make(map[string]tftypes.Value, n)
		for range n {
			k, err := dec.DecodeString()
			if err != nil {
				return tftypes.Value{}, err
			}
			if vals[k], err = decode(dec, s.elem, mt.ElementType); err != nil {
				return tftypes.Value{}, err
			}
		}
		return tftypes.NewValue(tftypes.Map{ElementType: mt.ElementType}, vals), nil
	case kTuple:
		tt, ok := typ.(tftypes.Tuple)
		if !ok || len(tt.ElementTypes) != len(s.elems) {
			return tftypes.Value{}, errShape
		}
		n, err := dec.DecodeArrayLen()
		if err != nil || n != len(s.elems) {
			return tftypes.Value{}, errShape
		}
		vals := make([]tftypes.Value, n)
		for i := range vals {
			if vals[i], err = decode(dec, s.elems[i], tt.ElementTypes[i]); err != nil {
				return tftypes.Value{}, err
			}
		}
		return tftypes.NewValue(tftypes.Tuple{ElementTypes: tt.ElementTypes}, vals), nil
	case kObject:
		ot, ok := typ.(tftypes.Object)
		if !ok || len(ot.AttributeTypes) != len(s.obj.order) {
			return tftypes.Value{}, errShape
		}
		n, err := dec.DecodeMapLen()
		if err != nil || n != len(ot.AttributeTypes) {
			return tftypes.Value{}, errShape
		}
		vals := make(map[string]tftypes.Value, n)
		for range n {
			k, err := dec.DecodeString()
			if err != nil {
				return tftypes.Value{}, err
			}
			f, ok := s.obj.fields[k]
			at, known := ot.AttributeTypes[k]
			if !ok || !known {
				return tftypes.Value{}, errShape
			}
			if vals[k], err = decode(dec, f.shape, at); err != nil {
				return tftypes.Value{}, err
			}
		}
		if len(vals) != n {
			return tftypes.Value{}, duplicateError{typ}
		}
		return tftypes.NewValue(tftypes.Object{AttributeTypes: ot.AttributeTypes}, vals), nil
	}
	return tftypes.Value{}, errShape
}

// decodeNumber reads a number as tftypes does: integers exactly, floats
// as float64, text at 512 bits.
func decodeNumber(dec *msgpack.Decoder, peek byte) (*big.Float, error) {
	switch {
	case msgpcode.IsFixedNum(peek), peek == msgpcode.Int8, peek == msgpcode.Int16, peek == msgpcode.Int32, peek == msgpcode.Int64:
		x, err := dec.DecodeInt64()
		if err != nil {
			return nil, err
		}
		return new(big.Float).SetInt64(x), nil
	case peek == msgpcode.Uint8, peek == msgpcode.Uint16, peek == msgpcode.Uint32, peek == msgpcode.Uint64:
		x, err := dec.DecodeUint64()
		if err != nil {
			return nil, err
		}
		return new(big.Float).SetUint64(x), nil
	case peek == msgpcode.Float, peek == msgpcode.Double:
		x, err := dec.DecodeFloat64()
		if err != nil {
			return nil, err
		}
		if math.IsNaN(x) {
			return nil, errors.New("a number that is NaN")
		}
		return big.NewFloat(x), nil
	}
	s, err := dec.DecodeString()
	if err != nil {
		return nil, err
	}
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	return f, err
}
