package wire

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// A large message reaches gRPC's codec in the pieces it was received in
// (frames of 16 KiB). Reading it as one slice would first copy all of it
// into one buffer; reading it in its pieces copies only what the values
// keep: each string once, straight out of the pieces. A part of the
// message smaller than smallSpan is copied out whole, if it spans pieces,
// and read as ReadMapBytes reads it.

// smallSpan is the size up to which a part of a message is read as one
// slice.
const smallSpan = 32 << 10

// span is a run of n bytes held in pieces: bufs[0][off:], then bufs[1:].
type span struct {
	bufs [][]byte
	off  int
	n    int
}

func newSpan(bufs [][]byte) span {
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	return span{bufs: bufs, n: n}
}

// skipEmpty moves past used-up pieces.
func (s *span) skipEmpty() {
	for len(s.bufs) > 0 && s.off >= len(s.bufs[0]) {
		s.bufs, s.off = s.bufs[1:], 0
	}
}

// advance drops the first k bytes (k <= n).
func (s *span) advance(k int) {
	s.n -= k
	for k > 0 {
		s.skipEmpty()
		p := min(len(s.bufs[0])-s.off, k)
		s.off += p
		k -= p
	}
	s.skipEmpty()
}

// take splits off the first k bytes (k <= n).
func (s *span) take(k int) span {
	s.skipEmpty()
	t := span{bufs: s.bufs, off: s.off, n: k}
	s.advance(k)
	return t
}

// bytes is the span as one slice: part of a piece where it fits in one,
// else a copy.
func (s span) bytes() []byte {
	s.skipEmpty()
	if s.n == 0 {
		return nil
	}
	if first := s.bufs[0][s.off:]; len(first) >= s.n {
		return first[:s.n:s.n]
	}
	out := make([]byte, 0, s.n)
	for p := range s.pieces {
		out = append(out, p...)
	}
	return out
}

// pieces yields the span's bytes piece by piece.
func (s span) pieces(yield func([]byte) bool) {
	off, n := s.off, s.n
	for _, b := range s.bufs {
		if n == 0 {
			return
		}
		p := b[min(off, len(b)):]
		off = 0
		if len(p) > n {
			p = p[:n]
		}
		if len(p) == 0 {
			continue
		}
		n -= len(p)
		if !yield(p) {
			return
		}
	}
}

// peek is up to the first 10 bytes, enough for a tag or a varint.
func (s span) peek(scratch *[10]byte) []byte {
	s.skipEmpty()
	if s.n == 0 {
		return nil
	}
	if first := s.bufs[0][s.off:]; len(first) >= min(s.n, 10) {
		return first[:min(s.n, 10)]
	}
	k := 0
	for p := range s.pieces {
		k += copy(scratch[k:], p)
		if k == len(scratch) {
			break
		}
	}
	return scratch[:k]
}

// tag reads a field's tag.
func (s *span) tag() (protowire.Number, protowire.Type, bool) {
	var scratch [10]byte
	num, typ, n := protowire.ConsumeTag(s.peek(&scratch))
	if n < 0 {
		return 0, 0, false
	}
	s.advance(n)
	return num, typ, true
}

// varint reads a varint.
func (s *span) varint() (uint64, bool) {
	var scratch [10]byte
	v, n := protowire.ConsumeVarint(s.peek(&scratch))
	if n < 0 {
		return 0, false
	}
	s.advance(n)
	return v, true
}

// delimited reads the contents of a length-delimited field, after its tag.
func (s *span) delimited() (span, bool) {
	l, ok := s.varint()
	if !ok || l > uint64(s.n) {
		return span{}, false
	}
	return s.take(int(l)), true
}

// fieldValue reads the value of a field of type typ after its tag, for
// copying it as it is; false for groups and what is malformed.
func (s *span) fieldValue(typ protowire.Type) (span, bool) {
	var scratch [10]byte
	var n int
	switch typ {
	case protowire.VarintType:
		_, n = protowire.ConsumeVarint(s.peek(&scratch))
	case protowire.Fixed32Type:
		n = 4
	case protowire.Fixed64Type:
		n = 8
	case protowire.BytesType:
		l, m := protowire.ConsumeVarint(s.peek(&scratch))
		if m < 0 || l > uint64(s.n-m) {
			return span{}, false
		}
		n = m + int(l)
	default:
		return span{}, false
	}
	if n < 0 || n > s.n {
		return span{}, false
	}
	return s.take(n), true
}

// equal reports whether the span holds exactly str.
func (s span) equal(str string) bool {
	if s.n != len(str) {
		return false
	}
	for p := range s.pieces {
		if string(p) != str[:len(p)] {
			return false
		}
		str = str[len(p):]
	}
	return true
}

// text is the span as a string: prev itself when it holds the same bytes,
// else a copy.
func (s span) text(prev property.Value) string {
	if prev.IsString() && s.equal(prev.AsString()) {
		return prev.AsString()
	}
	var b strings.Builder
	b.Grow(s.n)
	for p := range s.pieces {
		b.Write(p)
	}
	return b.String()
}

// MessageStructs are the google.protobuf.Struct fields of a message that
// ReadMessageStructs read, in the order asked, and whether each was there.
type MessageStructs struct {
	Maps [3]property.Map
	Seen [3]bool
}

// ReadMessageStructs reads a message held in pieces bufs, as gRPC received
// it: its google.protobuf.Struct fields nums (at most 3) as ReadMapBytes
// would, and every other field, copied as it is, appended to rest, for
// proto to read. prev, which may be shorter than nums, holds values the
// Structs are expected to repeat, such as the inputs a monitor echoes as
// outputs: a string equal to the one at the same place in prev[i] is
// prev's, not a copy. ok is false where ReadMapBytes would say false, a
// field of nums comes more than once or the message is malformed: read it
// with proto then. Strings are copied out of bufs once, which the result
// does not refer to.
func ReadMessageStructs(bufs [][]byte, rest []byte, o UnmarshalOptions, nums []protowire.Number, prev []property.Map) (s MessageStructs, _ []byte, ok bool) {
	return readMessageStructs(newSpan(bufs), rest, o, nums, prev, smallSpan)
}

func readMessageStructs(b span, rest []byte, o UnmarshalOptions, nums []protowire.Number, prev []property.Map, small int) (s MessageStructs, _ []byte, ok bool) {
	for b.n > 0 {
		start := b
		num, typ, ok := b.tag()
		if !ok {
			return MessageStructs{}, rest, false
		}
		tagLen := start.n - b.n
		i := slices.Index(nums, num)
		if i < 0 {
			value, ok := b.fieldValue(typ)
			if !ok {
				return MessageStructs{}, rest, false
			}
			for p := range start.take(tagLen + value.n).pieces {
				rest = append(rest, p...)
			}
			continue
		}
		if typ != protowire.BytesType || s.Seen[i] {
			return MessageStructs{}, rest, false
		}
		content, ok := b.delimited()
		if !ok {
			return MessageStructs{}, rest, false
		}
		var p property.Map
		if i < len(prev) {
			p = prev[i]
		}
		fields, err := structSpan(content, o, p, 1, small)
		if err != nil {
			return MessageStructs{}, rest, false
		}
		s.Maps[i], s.Seen[i] = property.NewMap(fields), true
	}
	return s, rest, true
}

// structSpan reads a Struct's fields at depth depth, as
// unmarshalStructBytes.
func structSpan(b span, o UnmarshalOptions, prev property.Map, depth, small int) (map[string]property.Value, error) {
	if b.n <= small {
		return unmarshalStructBytes(b.bytes(), o, depth)
	}
	if depth > maxDepth {
		return nil, errUnusual
	}
	out := map[string]property.Value{}
	for b.n > 0 {
		num, typ, ok := b.tag()
		if !ok || num != structFields || typ != protowire.BytesType {
			return nil, errUnusual
		}
		entry, ok := b.delimited()
		if !ok {
			return nil, errUnusual
		}
		k, value, err := entrySpan(entry)
		if err != nil {
			return nil, err
		}
		v, err := valueSpan(value, o, prev.Get(k), depth+2, small) // in an entry
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// entrySpan splits a map entry into its key and its value, as mapEntry.
func entrySpan(b span) (string, span, error) {
	var key string
	var value span
	hasKey, hasValue := false, false
	for b.n > 0 {
		num, typ, ok := b.tag()
		if !ok || typ != protowire.BytesType || (num != entryKey && num != entryValue) {
			return "", span{}, errUnusual
		}
		field, ok := b.delimited()
		if !ok {
			return "", span{}, errUnusual
		}
		if num == entryKey {
			k := field.bytes()
			if hasKey || !utf8.Valid(k) {
				return "", span{}, errUnusual
			}
			key, hasKey = string(k), true
		} else {
			if hasValue {
				return "", span{}, errUnusual
			}
			value, hasValue = field, true
		}
	}
	if !hasValue {
		return "", span{}, errUnusual
	}
	return key, value, nil
}

// signedSpan reports whether Struct b has the signature key; false where
// it cannot be read.
func signedSpan(b span) bool {
	for b.n > 0 {
		num, typ, ok := b.tag()
		if !ok || num != structFields || typ != protowire.BytesType {
			return false
		}
		entry, ok := b.delimited()
		if !ok {
			return false
		}
		if k, _, err := entrySpan(entry); err == nil && k == sig.Key {
			return true
		}
	}
	return false
}

// valueSpan reads a Value at depth depth, as unmarshalValueBytes.
func valueSpan(b span, o UnmarshalOptions, prev property.Value, depth, small int) (property.Value, error) {
	if b.n <= small {
		return unmarshalValueBytes(b.bytes(), o, depth)
	}
	if depth > maxDepth {
		return property.Value{}, errUnusual
	}
	whole := b
	num, typ, ok := b.tag()
	if !ok {
		return property.Value{}, errUnusual
	}
	var v property.Value
	switch {
	case num == valueNull && typ == protowire.VarintType:
		_, ok = b.varint()
	case num == valueNumber && typ == protowire.Fixed64Type:
		var f span
		if f, ok = b.fieldValue(typ); ok {
			bits, _ := protowire.ConsumeFixed64(f.bytes())
			v = property.New(math.Float64frombits(bits))
		}
	case num == valueBool && typ == protowire.VarintType:
		var x uint64
		if x, ok = b.varint(); ok {
			v = property.New(x != 0)
		}
	case num == valueString && typ == protowire.BytesType:
		var f span
		if f, ok = b.delimited(); ok {
			str := f.text(prev)
			if !utf8.ValidString(str) {
				return property.Value{}, errUnusual
			}
			if isUnknown(str) {
				v = property.New(property.Computed)
			} else {
				v = property.New(str)
			}
		}
	case num == valueList && typ == protowire.BytesType:
		var list span
		if list, ok = b.delimited(); ok {
			var err error
			if v, err = listSpan(list, o, prev, depth+1, small); err != nil {
				return property.Value{}, err
			}
		}
	case num == valueStruct && typ == protowire.BytesType:
		var s span
		if s, ok = b.delimited(); ok {
			if signedSpan(s) {
				// As unmarshalValueBytes: the signature object is read
				// as proto would read it, its strings copied once.
				w, err := pbValueSpan(whole, prev, depth, small)
				if err != nil {
					return property.Value{}, err
				}
				return unmarshal("", w, o)
			}
			var pm property.Map
			if prev.IsMap() {
				pm = prev.AsMap()
			}
			fields, err := structSpan(s, o, pm, depth+1, small)
			if err != nil {
				return property.Value{}, err
			}
			v = property.New(fields)
		}
	default:
		return property.Value{}, errUnusual
	}
	if !ok || b.n != 0 {
		return property.Value{}, errUnusual // malformed, or more than one kind
	}
	return v, nil
}

// listSpan reads a ListValue at depth depth, as unmarshalListBytes.
func listSpan(b span, o UnmarshalOptions, prev property.Value, depth, small int) (property.Value, error) {
	if depth > maxDepth {
		return property.Value{}, errUnusual
	}
	var prevs []property.Value
	if prev.IsArray() {
		prevs = prev.AsArray().AsSlice()
	}
	elems := []property.Value{}
	for b.n > 0 {
		num, typ, ok := b.tag()
		if !ok || num != listValues || typ != protowire.BytesType {
			return property.Value{}, errUnusual
		}
		elem, ok := b.delimited()
		if !ok {
			return property.Value{}, errUnusual
		}
		var p property.Value
		if len(elems) < len(prevs) {
			p = prevs[len(elems)]
		}
		v, err := valueSpan(elem, o, p, depth+1, small)
		if err != nil {
			return property.Value{}, err
		}
		elems = append(elems, v)
	}
	return property.New(elems), nil
}

// pbValueSpan reads Value b as proto.Unmarshal would, for the signature
// objects unmarshal reads; what it does not read the way proto does (a
// field repeated, of an unexpected type, invalid UTF-8) is errUnusual.
// prev is the value expected there, plain or not.
func pbValueSpan(b span, prev property.Value, depth, small int) (*structpb.Value, error) {
	if b.n <= small {
		var w structpb.Value
		if err := proto.Unmarshal(b.bytes(), &w); err != nil {
			return nil, err
		}
		return &w, nil
	}
	if depth > maxDepth {
		return nil, errUnusual
	}
	prev = prev.WithSecret(false).WithDependencies(nil)
	whole := b
	num, typ, ok := b.tag()
	if !ok {
		return nil, errUnusual
	}
	if typ != protowire.BytesType { // a scalar first: proto's reading
		var w structpb.Value
		if err := proto.Unmarshal(whole.bytes(), &w); err != nil {
			return nil, err
		}
		return &w, nil
	}
	f, ok := b.delimited()
	if !ok || b.n != 0 {
		return nil, errUnusual
	}
	switch num {
	case valueString:
		str := f.text(prev)
		if !utf8.ValidString(str) {
			return nil, errUnusual
		}
		return structpb.NewStringValue(str), nil
	case valueList:
		var prevs []property.Value
		if prev.IsArray() {
			prevs = prev.AsArray().AsSlice()
		}
		list := &structpb.ListValue{}
		for f.n > 0 {
			num, typ, ok := f.tag()
			if !ok || num != listValues || typ != protowire.BytesType {
				return nil, errUnusual
			}
			elem, ok := f.delimited()
			if !ok {
				return nil, errUnusual
			}
			var p property.Value
			if len(list.Values) < len(prevs) {
				p = prevs[len(list.Values)]
			}
			w, err := pbValueSpan(elem, p, depth+2, small)
			if err != nil {
				return nil, err
			}
			list.Values = append(list.Values, w)
		}
		return structpb.NewListValue(list), nil
	case valueStruct:
		fields := map[string]*structpb.Value{}
		for f.n > 0 {
			num, typ, ok := f.tag()
			if !ok || num != structFields || typ != protowire.BytesType {
				return nil, errUnusual
			}
			entry, ok := f.delimited()
			if !ok {
				return nil, errUnusual
			}
			k, value, err := entrySpan(entry)
			if err != nil {
				return nil, err
			}
			if _, dup := fields[k]; dup {
				return nil, errUnusual
			}
			// Inside a signature object, its value is what prev holds.
			p := prev
			if prev.IsMap() {
				p = prev.AsMap().Get(k)
			} else if k != "value" {
				p = property.Value{}
			}
			w, err := pbValueSpan(value, p, depth+3, small)
			if err != nil {
				return nil, err
			}
			fields[k] = w
		}
		return structpb.NewStructValue(&structpb.Struct{Fields: fields}), nil
	}
	return nil, errUnusual
}
