package wire

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// AppendMapField appends m to b as field num of the message being encoded
// in b: the field's tag, then the protobuf encoding of MarshalMap(m, o).
// It fails where MarshalMap fails, with the same error, or where proto
// would refuse to encode MarshalMap's Struct (a string that is not valid
// UTF-8). Plain data is written straight to the bytes; signature objects
// (secrets, unknowns, output values, references, assets, byte strings) are
// built by MarshalMap's code and encoded by proto.
//
// Each message is written after a one-byte length, and moved if its
// length needs more, so a byte may move once per enclosing message.
// Below measureDepth maps and arrays deep, a value is measured first and
// then written once, so that the cost stays linear however deep values go.
func AppendMapField(b []byte, num protowire.Number, m property.Map, o MarshalOptions) ([]byte, error) {
	// Room for all of it at once, when it is large: appending into a
	// small buffer would copy a large value again each time it grows.
	if hint := sizeHint(property.New(m), 0); hint > largeHint {
		b = slices.Grow(b, hint)
	}
	a := appender{o: o}
	b, err := a.mapField(b, num, m, 0)
	if err == nil {
		err = a.refused
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// largeHint is the size from which AppendMapField makes room first.
const largeHint = 64 << 10

// sizeHint is about what v takes written, at least: its strings' and
// keys' lengths, and a little for each value and its markers; it stops
// counting past maxHint.
func sizeHint(v property.Value, n int) int {
	if n > maxHint {
		return n
	}
	n += 16
	switch {
	case v.IsString():
		n += len(v.AsString())
	case v.IsArray():
		for _, e := range v.AsArray().All {
			n = sizeHint(e, n)
		}
	case v.IsMap():
		for k, e := range v.AsMap().All {
			n = sizeHint(e, n+len(k)+8)
		}
	}
	return n
}

// maxHint bounds the room AppendMapField makes first.
const maxHint = 1 << 30

// measureDepth is how many maps and arrays deep values are written in one
// pass; deeper ones are measured, then written.
const measureDepth = 8

func (a *appender) mapField(b []byte, num protowire.Number, m property.Map, depth int) ([]byte, error) {
	b, start := openDelimited(b, num)
	// In key order, as MarshalMap, so the same error comes first.
	for k, v := range m.AllStable {
		if !utf8.ValidString(k) {
			a.refuse(fmt.Errorf("property name %q is not valid UTF-8", k))
		}
		var entry int
		b, entry = openDelimited(b, structFields)
		b = protowire.AppendTag(b, entryKey, protowire.BytesType)
		b = protowire.AppendString(b, k)
		var err error
		if b, err = a.value(b, entryValue, k, v, depth+1); err != nil {
			return nil, err
		}
		b = closeDelimited(b, entry)
	}
	return closeDelimited(b, start), nil
}

// value appends v, the value of (or inside) property key, depth maps and
// arrays deep, as field num of type google.protobuf.Value.
func (a *appender) value(b []byte, num protowire.Number, key string, v property.Value, depth int) ([]byte, error) {
	v = a.downgrade(v)
	if depth >= measureDepth && (v.IsArray() || v.IsMap()) && !signed(v) {
		a.sizes, a.signed, a.keys = a.sizes[:0], a.signed[:0], a.keys[:0]
		a.next, a.nextSigned, a.nextKeys = 0, 0, 0
		if _, err := a.measureValue(key, v); err != nil {
			return nil, err
		}
		return a.exactValue(b, num, v), nil
	}
	var start int
	b, start = openDelimited(b, num)
	var err error
	switch {
	case signed(v):
		var w *structpb.Value
		if w, err = marshal(key, v, a.o); err == nil {
			if out, perr := (proto.MarshalOptions{}).MarshalAppend(b, w); perr != nil {
				a.refuse(perr)
			} else {
				b = out
			}
		}
	case v.IsNull():
		b = protowire.AppendTag(b, valueNull, protowire.VarintType)
		b = protowire.AppendVarint(b, 0)
	case v.IsBool():
		b = protowire.AppendTag(b, valueBool, protowire.VarintType)
		b = protowire.AppendVarint(b, protowire.EncodeBool(v.AsBool()))
	case v.IsNumber():
		b = protowire.AppendTag(b, valueNumber, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(v.AsNumber()))
	case v.IsString():
		b = protowire.AppendTag(b, valueString, protowire.BytesType)
		b = protowire.AppendString(b, v.AsString())
	case v.IsArray():
		var list int
		b, list = openDelimited(b, valueList)
		for _, e := range v.AsArray().All {
			if b, err = a.value(b, listValues, key, e, depth+1); err != nil {
				return nil, err
			}
		}
		b = closeDelimited(b, list)
	case v.IsMap():
		b, err = a.mapField(b, valueStruct, v.AsMap(), depth)
	default:
		_, err = marshal(key, v, a.o) // its error for a value of no kind
	}
	if err != nil {
		return nil, err
	}
	return closeDelimited(b, start), nil
}

// openDelimited appends the tag of length-delimited field num and one byte
// for its length, and returns where the field's contents start.
func openDelimited(b []byte, num protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return append(b, 0), len(b) + 1
}

// closeDelimited writes the length of the contents from start on, moving
// them if it takes more than the byte openDelimited left.
func closeDelimited(b []byte, start int) []byte {
	n := len(b) - start
	if n < 0x80 {
		b[start-1] = byte(n)
		return b
	}
	extra := protowire.SizeVarint(uint64(n)) - 1
	b = append(b, make([]byte, extra)...)
	copy(b[start+extra:], b[start:start+n])
	protowire.AppendVarint(b[:start-1], uint64(n))
	return b
}

// appender writes property values as protobuf: in one pass, or, for a
// deep value, in two over it in the same order: measure, then write.
type appender struct {
	o MarshalOptions
	// refused is the first thing proto would refuse to encode. MarshalMap
	// would have met every error of its own first, so it is reported only
	// when the whole map is written.
	refused error
	// For the deep value being written: sizes are the content lengths of
	// its nested messages, in the order the write opens them; signed the
	// signature values marshal built, in order. next and nextSigned are
	// the write's places in them.
	sizes            []int
	signed           []*structpb.Value
	next, nextSigned int
	// keys are each map's keys, sorted, in the order the write meets the
	// maps.
	keys     [][]string
	nextKeys int
	// segMin, when not 0, is the length from which a string is not copied
	// but sent as its own segment (AppendMapFieldSegments), after the
	// segments in segs.
	segMin int
	segs   [][]byte
}

func (a *appender) refuse(err error) {
	if a.refused == nil {
		a.refused = err
	}
}

// slot reserves the next nested message's length.
func (a *appender) slot() int {
	a.sizes = append(a.sizes, 0)
	return len(a.sizes) - 1
}

// field is the length of a length-delimited field of num with n bytes.
func field(num protowire.Number, n int) int { return protowire.SizeTag(num) + protowire.SizeBytes(n) }

// measureMap measures a Struct holding m and returns its length.
func (a *appender) measureMap(m property.Map) (int, error) {
	s := a.slot()
	n := 0
	keys := make([]string, 0, m.Len())
	for k := range m.All {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	a.keys = append(a.keys, keys)
	for _, k := range keys {
		v := m.Get(k)
		e := a.slot()
		vn, err := a.measureValue(k, v)
		if err != nil {
			return 0, err
		}
		a.sizes[e] = field(entryKey, len(k)) + field(entryValue, vn)
		n += field(structFields, a.sizes[e])
	}
	a.sizes[s] = n
	return n, nil
}

// downgrade makes the downgrades marshal makes first, for a receiver that
// takes no output values or no secrets: what is left may be plain.
func (a *appender) downgrade(v property.Value) property.Value {
	if len(v.Dependencies()) > 0 && !a.o.OutputValues {
		v = v.WithDependencies(nil)
	}
	if v.Secret() && !a.o.Secrets && len(v.Dependencies()) == 0 {
		v = v.WithSecret(false)
	}
	return v
}

func signed(v property.Value) bool {
	return v.Secret() || len(v.Dependencies()) > 0 || v.IsComputed() ||
		v.IsResourceReference() || v.IsAsset() || v.IsArchive() ||
		v.IsString() && !utf8.ValidString(v.AsString())
}

// measureValue measures a google.protobuf.Value holding v, the value of (or
// inside) property key, and returns its length.
func (a *appender) measureValue(key string, v property.Value) (int, error) {
	s := a.slot()
	v = a.downgrade(v)
	var n int
	switch {
	case a.largeSecret(v):
		n = secretSizes(len(v.AsString())).value
	case signed(v):
		w, err := marshal(key, v, a.o)
		if err != nil {
			return 0, err
		}
		a.signed = append(a.signed, w)
		n = proto.Size(w)
	case v.IsNull():
		n = protowire.SizeTag(valueNull) + protowire.SizeVarint(0)
	case v.IsBool():
		n = protowire.SizeTag(valueBool) + protowire.SizeVarint(protowire.EncodeBool(v.AsBool()))
	case v.IsNumber():
		n = protowire.SizeTag(valueNumber) + protowire.SizeFixed64()
	case v.IsString():
		n = field(valueString, len(v.AsString()))
	case v.IsArray():
		list := a.slot()
		for _, e := range v.AsArray().All {
			en, err := a.measureValue(key, e)
			if err != nil {
				return 0, err
			}
			a.sizes[list] += field(listValues, en)
		}
		n = field(valueList, a.sizes[list])
	case v.IsMap():
		mn, err := a.measureMap(v.AsMap())
		if err != nil {
			return 0, err
		}
		n = field(valueStruct, mn)
	default:
		if _, err := marshal(key, v, a.o); err != nil { // its error for a value of no kind
			return 0, err
		}
	}
	a.sizes[s] = n
	return n, nil
}

func (a *appender) exactMap(b []byte, num protowire.Number, m property.Map) []byte {
	b = a.open(b, num)
	// In key order, as MarshalMap and measureMap.
	keys := a.keys[a.nextKeys]
	a.nextKeys++
	for _, k := range keys {
		v := m.Get(k)
		if !utf8.ValidString(k) {
			a.refuse(fmt.Errorf("property name %q is not valid UTF-8", k))
		}
		b = a.open(b, structFields)
		b = protowire.AppendTag(b, entryKey, protowire.BytesType)
		b = protowire.AppendString(b, k)
		b = a.exactValue(b, entryValue, v)
	}
	return b
}

// exactValue appends v as field num of type google.protobuf.Value, with
// the lengths measureValue measured.
func (a *appender) exactValue(b []byte, num protowire.Number, v property.Value) []byte {
	b = a.open(b, num)
	v = a.downgrade(v)
	switch {
	case a.largeSecret(v):
		b = a.appendSecret(b, v.AsString())
	case signed(v):
		w := a.signed[a.nextSigned]
		a.nextSigned++
		if out, err := (proto.MarshalOptions{}).MarshalAppend(b, w); err != nil {
			a.refuse(err) // b is then short of what was measured, and dropped
		} else {
			b = out
		}
	case v.IsNull():
		b = protowire.AppendTag(b, valueNull, protowire.VarintType)
		b = protowire.AppendVarint(b, 0)
	case v.IsBool():
		b = protowire.AppendTag(b, valueBool, protowire.VarintType)
		b = protowire.AppendVarint(b, protowire.EncodeBool(v.AsBool()))
	case v.IsNumber():
		b = protowire.AppendTag(b, valueNumber, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(v.AsNumber()))
	case v.IsString():
		b = a.appendString(b, v.AsString())
	case v.IsArray():
		b = a.open(b, valueList)
		for _, e := range v.AsArray().All {
			b = a.exactValue(b, listValues, e)
		}
	case v.IsMap():
		b = a.exactMap(b, valueStruct, v.AsMap())
	}
	return b
}

// open appends the tag of length-delimited field num and the length
// measured for it.
func (a *appender) open(b []byte, num protowire.Number) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(a.sizes[a.next]))
	a.next++
	return b
}

// ReadMapBytes reads the protobuf encoding of a google.protobuf.Struct
// straight into a property.Map, giving what proto.Unmarshal into a Struct
// followed by UnmarshalMap gives. Plain data is read directly; objects with
// a signature go through proto and UnmarshalMap. ok is false where the
// bytes need proto's own reading: anything malformed or unusual in the
// encoding, and values nested deeper than maxDepth. The caller then reads
// its whole message with proto, which also gives proto's errors.
func ReadMapBytes(b []byte, o UnmarshalOptions) (m property.Map, ok bool) {
	fields, err := unmarshalStructBytes(b, o, 1)
	if err != nil {
		return property.Map{}, false
	}
	return property.NewMap(fields), true
}

// errUnusual says the bytes need proto's reading: a field repeated or of an
// unexpected wire type, invalid UTF-8, a value of no kind.
var errUnusual = errors.New("unusual encoding")

const (
	structFields = 1 // Struct.fields, map<string, Value>
	entryKey     = 1
	entryValue   = 2
	listValues   = 1 // ListValue.values

	valueNull   = 1
	valueNumber = 2
	valueString = 3
	valueBool   = 4
	valueStruct = 5
	valueList   = 6
)

// maxDepth is how many messages deep (Structs, their entries, Values,
// ListValues) ReadMapBytes reads; deeper values, some 300 objects deep, are
// left to proto, which allows 10,000 and knows how to refuse more.
const maxDepth = 1000

// unmarshalStructBytes decodes the fields of a Struct at depth depth. An
// error only says to ask proto.
func unmarshalStructBytes(b []byte, o UnmarshalOptions, depth int) (map[string]property.Value, error) {
	if depth > maxDepth {
		return nil, errUnusual
	}
	out := make(map[string]property.Value, countEntries(b))
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != structFields || typ != protowire.BytesType {
			return nil, errUnusual
		}
		b = b[n:]
		entry, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, errUnusual
		}
		b = b[n:]
		k, value, err := mapEntry(entry)
		if err != nil {
			return nil, err
		}
		v, err := unmarshalValueBytes(value, o, depth+2) // in an entry
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// signedBytes reports whether Struct bytes b have the signature key of a
// special value; false where they cannot be read.
func signedBytes(b []byte) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != structFields || typ != protowire.BytesType {
			return false
		}
		entry, m := protowire.ConsumeBytes(b[n:])
		if m < 0 {
			return false
		}
		b = b[n+m:]
		if k, _, err := mapEntry(entry); err == nil && k == sig.Key {
			return true
		}
	}
	return false
}

// countEntries is how many fields Struct bytes b has, for the size of its
// map; it stops at bytes it cannot read.
func countEntries(b []byte) int {
	n := 0
	for len(b) > 0 {
		_, typ, t := protowire.ConsumeTag(b)
		if t < 0 {
			break
		}
		m := protowire.ConsumeFieldValue(0, typ, b[t:])
		if m < 0 {
			break
		}
		b = b[t+m:]
		n++
	}
	return n
}

// mapEntry splits a map entry into its key and the bytes of its value.
func mapEntry(b []byte) (string, []byte, error) {
	var key string
	var value []byte
	hasKey, hasValue := false, false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.BytesType || (num != entryKey && num != entryValue) {
			return "", nil, errUnusual
		}
		b = b[n:]
		field, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return "", nil, errUnusual
		}
		b = b[n:]
		if num == entryKey {
			if hasKey || !utf8.Valid(field) {
				return "", nil, errUnusual
			}
			key, hasKey = string(field), true
		} else {
			if hasValue {
				return "", nil, errUnusual
			}
			value, hasValue = field, true
		}
	}
	if !hasValue {
		return "", nil, errUnusual
	}
	return key, value, nil
}

// unmarshalValueBytes decodes a Value, at depth depth, holding exactly one
// kind.
func unmarshalValueBytes(b []byte, o UnmarshalOptions, depth int) (property.Value, error) {
	if depth > maxDepth {
		return property.Value{}, errUnusual
	}
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return property.Value{}, errUnusual
	}
	rest := b[n:]
	var v property.Value
	switch {
	case num == valueNull && typ == protowire.VarintType:
		_, n = protowire.ConsumeVarint(rest)
	case num == valueNumber && typ == protowire.Fixed64Type:
		var bits uint64
		bits, n = protowire.ConsumeFixed64(rest)
		v = property.New(math.Float64frombits(bits))
	case num == valueBool && typ == protowire.VarintType:
		var x uint64
		x, n = protowire.ConsumeVarint(rest)
		v = property.New(x != 0)
	case num == valueString && typ == protowire.BytesType:
		var s []byte
		s, n = protowire.ConsumeBytes(rest)
		if n >= 0 && !utf8.Valid(s) {
			return property.Value{}, errUnusual
		}
		if str := string(s); isUnknown(str) {
			v = property.New(property.Computed)
		} else {
			v = property.New(str)
		}
	case num == valueList && typ == protowire.BytesType:
		var list []byte
		list, n = protowire.ConsumeBytes(rest)
		if n >= 0 {
			var err error
			if v, err = unmarshalListBytes(list, o, depth+1); err != nil {
				return property.Value{}, err
			}
		}
	case num == valueStruct && typ == protowire.BytesType:
		var s []byte
		s, n = protowire.ConsumeBytes(rest)
		if n >= 0 {
			if signedBytes(s) {
				// Secrets, references, assets, output values: proto's
				// way, from the bytes (decoding the fields first would
				// copy a secret's value once more).
				var w structpb.Value
				if err := proto.Unmarshal(b, &w); err != nil {
					return property.Value{}, err
				}
				return unmarshal("", &w, o)
			}
			fields, err := unmarshalStructBytes(s, o, depth+1)
			if err != nil {
				return property.Value{}, err
			}
			v = property.New(fields)
		}
	default:
		return property.Value{}, errUnusual
	}
	if n < 0 || len(rest) != n {
		return property.Value{}, errUnusual // malformed, or more than one kind
	}
	return v, nil
}

// unmarshalListBytes decodes a ListValue at depth depth.
func unmarshalListBytes(b []byte, o UnmarshalOptions, depth int) (property.Value, error) {
	if depth > maxDepth {
		return property.Value{}, errUnusual
	}
	elems := []property.Value{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != listValues || typ != protowire.BytesType {
			return property.Value{}, errUnusual
		}
		b = b[n:]
		elem, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return property.Value{}, errUnusual
		}
		b = b[n:]
		v, err := unmarshalValueBytes(elem, o, depth+1)
		if err != nil {
			return property.Value{}, err
		}
		elems = append(elems, v)
	}
	return property.New(elems), nil
}

// AppendMapFieldSegments is AppendMapField for a message sent in pieces,
// as gRPC sends a mem.BufferSlice: it appends to segs b, with m appended,
// split where a string of m of at least segmentMin bytes, plain or secret,
// is its own segment: the string's memory, not a copy, to be read and
// never written. The bytes are AppendMapField's but for the order of a
// secret's fields and how long each length is written.
func AppendMapFieldSegments(segs [][]byte, b []byte, num protowire.Number, m property.Map, o MarshalOptions) ([][]byte, error) {
	return appendMapFieldSegments(segs, b, num, m, o, segmentMin)
}

// segmentMin is the length from which AppendMapFieldSegments sends a
// string as its own segment.
const segmentMin = 64 << 10

func appendMapFieldSegments(segs [][]byte, b []byte, num protowire.Number, m property.Map, o MarshalOptions, segMin int) ([][]byte, error) {
	if sizeHint(property.New(m), 0) < segMin {
		b, err := AppendMapField(b, num, m, o)
		if err != nil {
			return nil, err
		}
		return append(segs, b), nil
	}
	a := appender{o: o, segMin: segMin, segs: segs}
	if _, err := a.measureMap(m); err != nil {
		return nil, err
	}
	b = a.exactMap(b, num, m)
	if a.refused != nil {
		return nil, a.refused
	}
	if len(b) > 0 {
		a.segs = append(a.segs, b)
	}
	return a.segs, nil
}

// appendString appends a Value's string field holding s, as its own
// segment where s is large.
func (a *appender) appendString(b []byte, s string) []byte {
	b = protowire.AppendTag(b, valueString, protowire.BytesType)
	if a.segMin == 0 || len(s) < a.segMin {
		return protowire.AppendString(b, s)
	}
	b = protowire.AppendVarint(b, uint64(len(s)))
	a.segs = append(a.segs, b, unsafe.Slice(unsafe.StringData(s), len(s)))
	return b[len(b):] // the rest goes after b, in the same array
}

// largeSecret reports whether v, downgraded, is a secret string that
// appendSecret writes, its value in a segment of its own.
func (a *appender) largeSecret(v property.Value) bool {
	return a.segMin > 0 && v.Secret() && len(v.Dependencies()) == 0 && v.IsString() &&
		len(v.AsString()) >= a.segMin && utf8.ValidString(v.AsString())
}

// secretFields are the lengths of a secret string's encoding, as a
// google.protobuf.Value: its own, its Struct's and the Struct's two
// entries'.
type secretFields struct{ value, object, sigEntry, valueEntry int }

func secretSizes(n int) secretFields {
	var f secretFields
	f.sigEntry = field(entryKey, len(sig.Key)) + field(entryValue, field(valueString, len(sig.Secret)))
	f.valueEntry = field(entryKey, len("value")) + field(entryValue, field(valueString, n))
	f.object = field(structFields, f.sigEntry) + field(structFields, f.valueEntry)
	f.value = field(valueStruct, f.object)
	return f
}

// appendSecret appends the contents of a Value holding secret s: the
// signature object MarshalMap builds, written directly.
func (a *appender) appendSecret(b []byte, s string) []byte {
	f := secretSizes(len(s))
	b = protowire.AppendTag(b, valueStruct, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(f.object))
	b = protowire.AppendTag(b, structFields, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(f.sigEntry))
	b = protowire.AppendTag(b, entryKey, protowire.BytesType)
	b = protowire.AppendString(b, sig.Key)
	b = protowire.AppendTag(b, entryValue, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(field(valueString, len(sig.Secret))))
	b = protowire.AppendTag(b, valueString, protowire.BytesType)
	b = protowire.AppendString(b, sig.Secret)
	b = protowire.AppendTag(b, structFields, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(f.valueEntry))
	b = protowire.AppendTag(b, entryKey, protowire.BytesType)
	b = protowire.AppendString(b, "value")
	b = protowire.AppendTag(b, entryValue, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(field(valueString, len(s))))
	return a.appendString(b, s)
}
