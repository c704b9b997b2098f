package wire

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/types/known/structpb"
)

// MarshalOptions say which value kinds the receiver accepts as such; the
// others are downgraded: a secret to its value, a resource reference to its
// ID (or URN), an output value to its secret or unknown value. Unknowns are
// always sent.
type MarshalOptions struct {
	Secrets      bool
	Resources    bool
	OutputValues bool
	// ByteStrings lets strings that are not valid UTF-8 go as byte string
	// objects; without it they are an error.
	ByteStrings bool
}

// UnmarshalOptions say which value kinds to keep; the others are read as
// plain values. Secrets and unknowns are always kept.
type UnmarshalOptions struct {
	Resources    bool
	OutputValues bool
}

// MarshalMap encodes m for the wire.
func MarshalMap(m property.Map, o MarshalOptions) (*structpb.Struct, error) {
	fields := make(map[string]*structpb.Value, m.Len())
	for k, v := range m.All {
		w, err := marshal(k, v, o)
		if err != nil {
			// In key order, so the same error comes first every time.
			for k, v := range m.AllStable {
				if _, err := marshal(k, v, o); err != nil {
					return nil, err
				}
			}
			return nil, err
		}
		fields[k] = w
	}
	return &structpb.Struct{Fields: fields}, nil
}

// MarshalValue encodes a single value, such as a replacement trigger; key
// names it in errors.
func MarshalValue(key string, v property.Value, o MarshalOptions) (*structpb.Value, error) {
	return marshal(key, v, o)
}

// marshal encodes v, the value of (or inside) property key.
func marshal(key string, v property.Value, o MarshalOptions) (*structpb.Value, error) {
	if deps := v.Dependencies(); len(deps) > 0 {
		if !o.OutputValues {
			return marshal(key, v.WithDependencies(nil), o)
		}
		fields := map[string]*structpb.Value{sig.Key: str(sig.OutputValue)}
		// Inside a signature object, values are named by their field, as
		// the SDK names them in errors.
		if !v.IsComputed() {
			elem, err := marshalPlain("value", v.WithSecret(false).WithDependencies(nil), o)
			if err != nil {
				return nil, err
			}
			fields["value"] = elem
		}
		if v.Secret() {
			fields["secret"] = structpb.NewBoolValue(true)
		}
		list := make([]*structpb.Value, len(deps))
		for i, d := range deps {
			w, err := marshalPlain("dependencies", property.New(string(d)), o)
			if err != nil {
				return nil, err
			}
			list[i] = w
		}
		fields["dependencies"] = structpb.NewListValue(&structpb.ListValue{Values: list})
		return object(fields), nil
	}
	if v.Secret() {
		if !o.Secrets {
			return marshalPlain(key, v.WithSecret(false), o)
		}
		elem, err := marshalPlain("value", v.WithSecret(false), o)
		if err != nil {
			return nil, err
		}
		return object(map[string]*structpb.Value{sig.Key: str(sig.Secret), "value": elem}), nil
	}
	return marshalPlain(key, v, o)
}

// marshalPlain encodes v, which is neither secret nor has dependencies at
// the top (values inside it may).
func marshalPlain(key string, v property.Value, o MarshalOptions) (*structpb.Value, error) {
	switch {
	case v.IsNull():
		return structpb.NewNullValue(), nil
	case v.IsBool():
		return structpb.NewBoolValue(v.AsBool()), nil
	case v.IsNumber():
		return structpb.NewNumberValue(v.AsNumber()), nil
	case v.IsString():
		s := v.AsString()
		if utf8.ValidString(s) {
			return str(s), nil
		}
		if !o.ByteStrings {
			return nil, fmt.Errorf(
				"the value of property %q is a string that contains non-UTF8 bytes, which the receiver does not support", key)
		}
		return object(map[string]*structpb.Value{
			sig.Key: str(sig.ByteString), "value": str(base64.StdEncoding.EncodeToString([]byte(s))),
		}), nil
	case v.IsArray():
		elems := make([]*structpb.Value, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			w, err := marshal(key, e, o)
			if err != nil {
				return nil, err
			}
			elems = append(elems, w)
		}
		return structpb.NewListValue(&structpb.ListValue{Values: elems}), nil
	case v.IsMap():
		s, err := MarshalMap(v.AsMap(), o)
		if err != nil {
			return nil, err
		}
		return structpb.NewStructValue(s), nil
	case v.IsAsset():
		a := v.AsAsset()
		return marshalSerialized(a.URI, a.Serialize(), o)
	case v.IsArchive():
		a := v.AsArchive()
		return marshalSerialized(a.URI, a.Serialize(), o)
	case v.IsResourceReference():
		return marshalReference(key, v.AsResourceReference(), o)
	case v.IsComputed():
		return str(sig.UnknownStringValue), nil
	}
	return nil, fmt.Errorf("property %q: unsupported value %v", key, v)
}

func marshalReference(key string, ref property.ResourceReference, o MarshalOptions) (*structpb.Value, error) {
	if !o.Resources {
		// A null ID that is secret or has dependencies is not null to the
		// SDK.
		if id := ref.ID; !id.IsNull() || id.Secret() || len(id.Dependencies()) > 0 {
			return marshal(key, id, o)
		}
		return str(string(ref.URN)), nil
	}
	fields := map[string]string{"urn": string(ref.URN)}
	if ref.Name != "" {
		fields["name"] = ref.Name
	}
	if ref.Type != "" {
		fields["type"] = ref.Type
	}
	// The ID goes as a string when known, as "" when unknown, and not at
	// all when secret, with dependencies or absent, as the SDK does.
	switch id := ref.ID; {
	case id.Secret() || len(id.Dependencies()) > 0:
	case id.IsComputed():
		fields["id"] = ""
	case id.IsString():
		fields["id"] = id.AsString()
	}
	if ref.PackageVersion != "" {
		fields["packageVersion"] = ref.PackageVersion
	}
	out := map[string]*structpb.Value{sig.Key: str(sig.ResourceReference)}
	// In key order, so the same error comes first every time.
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		s := fields[k]
		w, err := marshalPlain(k, property.New(s), o)
		if err != nil {
			return nil, err
		}
		out[k] = w
	}
	return object(out), nil
}

// marshalSerialized encodes an asset's or archive's serialized form.
func marshalSerialized(key string, m map[string]any, o MarshalOptions) (*structpb.Value, error) {
	fields := make(map[string]*structpb.Value, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		var w *structpb.Value
		var err error
		switch v := v.(type) {
		case string:
			w, err = marshalPlain(k, property.New(v), o)
		case map[string]any:
			w, err = marshalSerialized(k, v, o)
		default:
			err = fmt.Errorf("property %q: unexpected %T in a serialized asset", key, v)
		}
		if err != nil {
			return nil, err
		}
		fields[k] = w
	}
	return object(fields), nil
}

func str(s string) *structpb.Value { return structpb.NewStringValue(s) }

// isUnknown reports whether s is one of the sentinels that stand for an
// unknown value.
func isUnknown(s string) bool {
	switch s {
	case sig.UnknownBoolValue, sig.UnknownNumberValue, sig.UnknownStringValue, sig.UnknownArrayValue,
		sig.UnknownAssetValue, sig.UnknownArchiveValue, sig.UnknownObjectValue:
		return true
	}
	return false
}

func object(fields map[string]*structpb.Value) *structpb.Value {
	return structpb.NewStructValue(&structpb.Struct{Fields: fields})
}

// UnmarshalMap decodes s; nil decodes to an empty map. An error in the
// value of one of s's keys is a *KeyError naming it.
func UnmarshalMap(s *structpb.Struct, o UnmarshalOptions) (property.Map, error) {
	m, err := unmarshalFields(s, o)
	if err != nil {
		return property.Map{}, err
	}
	return property.NewMap(m), nil
}

// KeyError is an error in the value of the top-level key Key. Its text is
// Err's, which names the key too.
type KeyError struct {
	Key string
	Err error
}

func (e *KeyError) Error() string { return e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

func unmarshalFields(s *structpb.Struct, o UnmarshalOptions) (map[string]property.Value, error) {
	fields := s.GetFields()
	out := make(map[string]property.Value, len(fields))
	for k, w := range fields {
		v, err := unmarshal(k, w, o)
		if err != nil {
			return nil, firstFieldError(fields, o, &KeyError{Key: k, Err: err})
		}
		out[k] = v
	}
	return out, nil
}

// firstFieldError is the error of the first field, in key order, that
// does not decode (so that the same error comes first every time); found
// when none does.
func firstFieldError(fields map[string]*structpb.Value, o UnmarshalOptions, found error) error {
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if _, err := unmarshal(k, fields[k], o); err != nil {
			if inner, ok := err.(*KeyError); ok { // a key of a map inside
				err = inner.Err
			}
			return &KeyError{Key: k, Err: err}
		}
	}
	return found
}

// UnmarshalValue decodes a single value; nil decodes to null.
func UnmarshalValue(key string, w *structpb.Value, o UnmarshalOptions) (property.Value, error) {
	if w == nil {
		return property.Value{}, nil
	}
	return unmarshal(key, w, o)
}

// unmarshal decodes w, the value of (or inside) property key.
func unmarshal(key string, w *structpb.Value, o UnmarshalOptions) (property.Value, error) {
	switch k := w.GetKind().(type) {
	case *structpb.Value_NullValue:
		return property.Value{}, nil
	case *structpb.Value_BoolValue:
		return property.New(k.BoolValue), nil
	case *structpb.Value_NumberValue:
		return property.New(k.NumberValue), nil
	case *structpb.Value_StringValue:
		if isUnknown(k.StringValue) {
			return property.New(property.Computed), nil
		}
		return property.New(k.StringValue), nil
	case *structpb.Value_ListValue:
		elems := make([]property.Value, len(k.ListValue.GetValues()))
		for i, e := range k.ListValue.GetValues() {
			v, err := unmarshal(key, e, o)
			if err != nil {
				return property.Value{}, err
			}
			elems[i] = v
		}
		return property.New(elems), nil
	case *structpb.Value_StructValue:
		return unmarshalObject(key, k.StructValue, o)
	}
	return property.Value{}, fmt.Errorf("property %q: a value of no kind", key)
}

// unmarshalObject decodes an object: a map, or a signature object. Every
// field is decoded first, so a malformed one is an error whatever the
// object is. The checks on a signature object's fields are the SDK's, made
// on the values as the SDK holds them (see sdkString).
func unmarshalObject(key string, s *structpb.Struct, o UnmarshalOptions) (property.Value, error) {
	fields, err := unmarshalFields(s, o)
	if err != nil {
		return property.Value{}, err
	}
	raw := s.GetFields()
	field := func(name string) (string, bool, bool) {
		w, has := raw[name]
		if !has {
			return "", false, false
		}
		str, ok := sdkString(w, fields[name], o)
		return str, true, ok
	}
	signature, hasSig, ok := field(sig.Key)
	switch {
	case !hasSig:
		return property.New(fields), nil
	case !ok:
		return property.Value{}, fmt.Errorf("unrecognized signature (%s) in property map for %q", kindOf(fields[sig.Key]), key)
	}
	switch signature {
	case sig.AssetSig, sig.ArchiveSig:
		return unmarshalAsset(signature, raw, fields, o)
	case sig.Secret:
		v, ok := fields["value"]
		if !ok {
			return property.Value{}, fmt.Errorf("malformed RPC secret: missing value for %q", key)
		}
		return v.WithSecret(true), nil
	case sig.ByteString:
		value, has, ok := field("value")
		switch {
		case !has:
			return property.Value{}, fmt.Errorf("malformed byte string for %q: missing value", key)
		case !ok:
			return property.Value{}, fmt.Errorf("malformed byte string for %q: value is not a string", key)
		}
		b, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			return property.Value{}, fmt.Errorf("malformed byte string for %q: value is not valid base64: %w", key, err)
		}
		return property.New(string(b)), nil
	case sig.ResourceReference:
		return unmarshalReference(key, raw, fields, field, o)
	case sig.OutputValue:
		return unmarshalOutput(key, raw, fields, o)
	}
	return property.Value{}, fmt.Errorf("unrecognized signature '%v' in property map for %q", signature, key)
}

// kindOf names the kind of a signature that is not a plain string.
func kindOf(v property.Value) string {
	switch {
	case v.Secret():
		return "a secret"
	case len(v.Dependencies()) > 0:
		return "a value with dependencies"
	case v.IsString():
		return "an output value"
	case v.IsNumber():
		return "a number"
	case v.IsBool():
		return "a bool"
	case v.IsArray():
		return "a list"
	case v.IsMap():
		return "an object"
	case v.IsComputed():
		return "unknown"
	case v.IsNull():
		return "null"
	}
	return "a special value"
}

// plain reports whether v, decoded from w, is a plain value to the SDK:
// not secret, without dependencies, and not a kept output value, which the
// SDK holds apart from its value even when known, not secret and without
// dependencies. w may be nil when output values are not kept.
func plain(w *structpb.Value, v property.Value, o UnmarshalOptions) bool {
	if v.Secret() || len(v.Dependencies()) > 0 {
		return false
	}
	return !o.OutputValues || !isOutputValue(w, o)
}

// isOutputValue reports whether w is an output value object.
func isOutputValue(w *structpb.Value, o UnmarshalOptions) bool {
	obj, ok := w.GetKind().(*structpb.Value_StructValue)
	if !ok {
		return false
	}
	sw, ok := obj.StructValue.GetFields()[sig.Key]
	if !ok {
		return false
	}
	sv, err := unmarshal(sig.Key, sw, o)
	if err != nil {
		return false
	}
	s, ok := sdkString(sw, sv, o)
	return ok && s == sig.OutputValue
}

// sdkString returns v, decoded from w, if the SDK sees a string there.
func sdkString(w *structpb.Value, v property.Value, o UnmarshalOptions) (string, bool) {
	if !v.IsString() || !plain(w, v, o) {
		return "", false
	}
	return v.AsString(), true
}

// opaque stands for a value the SDK's Mappable gives as a Go type that is
// not a primitive, slice or map (an unknown, secret, output or reference).
type opaque struct{}

// mappable is what the SDK's Mappable gives for v, decoded from w, as far
// as asset and archive deserialization can tell.
func mappable(w *structpb.Value, v property.Value, o UnmarshalOptions) any {
	if !plain(w, v, o) {
		return opaque{}
	}
	switch {
	case v.IsNull():
		return nil
	case v.IsBool():
		return v.AsBool()
	case v.IsNumber():
		return v.AsNumber()
	case v.IsString():
		return v.AsString()
	case v.IsArray():
		elems := w.GetListValue().GetValues()
		out := make([]any, 0, v.AsArray().Len())
		for i, e := range v.AsArray().All {
			var ew *structpb.Value
			if i < len(elems) {
				ew = elems[i]
			}
			out = append(out, mappable(ew, e, o))
		}
		return out
	case v.IsMap():
		return mappableMap(w.GetStructValue().GetFields(), v.AsMap().AsMap(), o)
	case v.IsAsset():
		return v.AsAsset()
	case v.IsArchive():
		return v.AsArchive()
	}
	return opaque{}
}

func mappableMap(raw map[string]*structpb.Value, fields map[string]property.Value, o UnmarshalOptions) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		out[k] = mappable(raw[k], v, o)
	}
	return out
}

func unmarshalAsset(signature string, raw map[string]*structpb.Value, fields map[string]property.Value, o UnmarshalOptions) (property.Value, error) {
	m := mappableMap(raw, fields, o)
	if signature == sig.AssetSig {
		a, _, err := asset.Deserialize(m)
		if err != nil {
			return property.Value{}, err
		}
		return property.New(a), nil
	}
	a, _, err := archive.Deserialize(m)
	if err != nil {
		return property.Value{}, err
	}
	return property.New(a), nil
}

func unmarshalReference(key string, raw map[string]*structpb.Value, fields map[string]property.Value,
	field func(string) (string, bool, bool), o UnmarshalOptions,
) (property.Value, error) {
	str := func(name string) (string, error) {
		s, has, ok := field(name)
		if has && !ok {
			return "", fmt.Errorf("malformed resource reference for %q: %s not a string", key, name)
		}
		return s, nil
	}
	u, hasURN, ok := field("urn")
	switch {
	case !hasURN:
		return property.Value{}, fmt.Errorf("malformed resource reference for %q: missing urn", key)
	case !ok:
		return property.Value{}, fmt.Errorf("malformed resource reference for %q: urn not a string", key)
	}
	name, err := str("name")
	if err != nil {
		return property.Value{}, err
	}
	typ, err := str("type")
	if err != nil {
		return property.Value{}, err
	}
	id, hasID, err := referenceID(key, raw, fields, o)
	if err != nil {
		return property.Value{}, err
	}
	version, err := str("packageVersion")
	if err != nil {
		return property.Value{}, err
	}
	if !o.Resources {
		switch {
		case !hasID:
			return property.New(u), nil
		case id == "":
			return property.New(property.Computed), nil
		}
		return property.New(id), nil
	}
	ref := property.ResourceReference{URN: urn.URN(u), Name: name, Type: typ, PackageVersion: version}
	if parsed := urn.URN(u); parsed.IsValid() {
		if ref.Name == "" {
			ref.Name = parsed.Name()
		}
		if ref.Type == "" {
			ref.Type = string(parsed.Type())
		}
	}
	if hasID {
		ref.ID = property.New(id)
		if id == "" {
			ref.ID = property.New(property.Computed)
		}
	}
	return property.New(ref), nil
}

// referenceID reads a reference's id as the SDK does: a string, an
// unknown, or a kept output value whose value, if known, is a string.
// Unknown reads as "".
func referenceID(key string, raw map[string]*structpb.Value, fields map[string]property.Value, o UnmarshalOptions) (string, bool, error) {
	w, ok := raw["id"]
	if !ok {
		return "", false, nil
	}
	v := fields["id"]
	if s, ok := sdkString(w, v, o); ok {
		return s, true, nil
	}
	if v.IsComputed() && plain(w, v, o) {
		return "", true, nil
	}
	if o.OutputValues && isOutputValue(w, o) {
		ew, known := w.GetStructValue().GetFields()["value"]
		if !known {
			return "", true, nil
		}
		if ev, err := unmarshal("value", ew, o); err == nil {
			if s, ok := sdkString(ew, ev, o); ok {
				return s, true, nil
			}
		}
	}
	return "", false, fmt.Errorf("malformed resource reference for %q: id not a string", key)
}

func unmarshalOutput(key string, raw map[string]*structpb.Value, fields map[string]property.Value, o UnmarshalOptions) (property.Value, error) {
	secret := false
	if w, ok := raw["secret"]; ok {
		v := fields["secret"]
		if !v.IsBool() || !plain(w, v, o) {
			return property.Value{}, fmt.Errorf("malformed output value for %q: secret not a bool", key)
		}
		secret = v.AsBool()
	}
	v, known := fields["value"]
	if !known {
		v = property.New(property.Computed)
	}
	if secret {
		v = v.WithSecret(true)
	}
	if !o.OutputValues {
		return v, nil
	}
	var deps []urn.URN
	if w, ok := raw["dependencies"]; ok {
		list := fields["dependencies"]
		if !list.IsArray() || !plain(w, list, o) {
			return property.Value{}, fmt.Errorf("malformed output value for %q: dependencies not an array", key)
		}
		elems := w.GetListValue().GetValues()
		for i, d := range list.AsArray().All {
			s, ok := sdkString(elems[i], d, o)
			if !ok {
				return property.Value{}, fmt.Errorf("malformed output value for %q: element in dependencies not a string", key)
			}
			deps = append(deps, urn.URN(s))
		}
	}
	return v.WithDependencies(deps), nil
}
