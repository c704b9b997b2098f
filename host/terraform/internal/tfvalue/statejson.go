package tfvalue

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// StateJSON is Known(m), the properties of a state of the block, as
// Terraform's JSON state writes them: what encoding/json writes of the
// Terraform value ToTerraform converts them to, each attribute by its
// Terraform name, keys sorted, numbers in big.Float's shortest text,
// absent nested blocks empty. It is written straight from m; ok is false
// when m holds what it leaves to that longer way (an unknown, a dynamic
// value, a value ToTerraform refuses, a number JSON cannot hold).
func (b *Block) StateJSON(m property.Map) (out []byte, ok bool) {
	return appendObject(make([]byte, 0, 256), b.shape, m, true)
}

// appendObject writes m as an object of shape s; only its properties when
// known is set, else m must hold nothing else.
func appendObject(buf []byte, s *shape, m property.Map, known bool) ([]byte, bool) {
	if !known {
		for k := range m.All {
			if _, ok := s.obj.byProp[k]; !ok {
				return nil, false
			}
		}
	}
	buf = append(buf, '{')
	for i, f := range s.obj.order { // by Terraform name: encoding/json's order
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, f.tf)
		buf = append(buf, ':')
		v := m.Get(f.prop)
		ok := true
		if v.IsNull() && f.nesting != tfprotov6.SchemaNestedBlockNestingModeInvalid {
			switch f.nesting { // as emptyBlock
			case tfprotov6.SchemaNestedBlockNestingModeList, tfprotov6.SchemaNestedBlockNestingModeSet:
				buf = append(buf, "[]"...)
			case tfprotov6.SchemaNestedBlockNestingModeMap:
				buf = append(buf, "{}"...)
			case tfprotov6.SchemaNestedBlockNestingModeGroup:
				buf, ok = appendObject(buf, f.shape, property.Map{}, false)
			default:
				buf = append(buf, "null"...)
			}
		} else {
			buf, ok = appendValue(buf, f.shape, v)
		}
		if !ok {
			return nil, false
		}
	}
	return append(buf, '}'), true
}

func appendValue(buf []byte, s *shape, v property.Value) ([]byte, bool) {
	switch {
	case v.IsComputed(), v.IsAsset(), v.IsArchive(), v.IsResourceReference():
		return nil, false
	case v.IsNull():
		return append(buf, "null"...), true
	}
	switch s.kind {
	case kString:
		if !v.IsString() {
			return nil, false
		}
		return appendString(buf, v.AsString()), true
	case kNumber:
		if !v.IsNumber() {
			return nil, false
		}
		f := v.AsNumber()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return strconv.AppendFloat(buf, f, 'g', -1, 64), true
		}
		return big.NewFloat(f).Append(buf, 'g', -1), true
	case kBool:
		if !v.IsBool() {
			return nil, false
		}
		return strconv.AppendBool(buf, v.AsBool()), true
	case kList, kSet, kTuple:
		if !v.IsArray() || s.kind == kTuple && v.AsArray().Len() != len(s.elems) {
			return nil, false
		}
		buf = append(buf, '[')
		for i, e := range v.AsArray().All {
			if i > 0 {
				buf = append(buf, ',')
			}
			es := s.elem
			if s.kind == kTuple {
				es = s.elems[i]
			}
			var ok bool
			if buf, ok = appendValue(buf, es, e); !ok {
				return nil, false
			}
		}
		return append(buf, ']'), true
	case kMap:
		if !v.IsMap() {
			return nil, false
		}
		buf = append(buf, '{')
		first := true
		for k, e := range v.AsMap().AllStable { // sorted, as encoding/json sorts
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = appendString(buf, k)
			buf = append(buf, ':')
			var ok bool
			if buf, ok = appendValue(buf, s.elem, e); !ok {
				return nil, false
			}
		}
		return append(buf, '}'), true
	case kObject:
		if !v.IsMap() {
			return nil, false
		}
		return appendObject(buf, s, v.AsMap(), false)
	}
	return nil, false // dynamic, or no Terraform type
}

// appendString writes s as encoding/json does, HTML characters escaped.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s) // a string always marshals
			return append(buf, j...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
