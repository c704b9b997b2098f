package tfresource

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
)

// StateKey is the output holding what Terraform keeps beside a resource's
// state, {"schemaVersion": n, "private": "<base64>"}, always secret: the
// schema version the state was recorded with and the provider's private
// state, which only the provider can read.
const StateKey = "__terraform"

// meta is what StateKey holds.
type meta struct {
	version int64
	private []byte
}

// metaOf reads StateKey of outputs; without it, the state is taken to be
// of version current, without private state.
func metaOf(outputs property.Map, current int64) (meta, error) {
	v, ok := outputs.GetOk(StateKey)
	if !ok || v.IsNull() {
		return meta{version: current}, nil
	}
	if !v.IsMap() {
		return meta{}, fmt.Errorf("output %s is not an object", StateKey)
	}
	m := meta{version: current}
	if n := v.AsMap().Get("schemaVersion"); n.IsNumber() {
		f := n.AsNumber()
		if f != math.Trunc(f) || f < 0 {
			return meta{}, fmt.Errorf("output %s: schemaVersion %v is not a version", StateKey, f)
		}
		m.version = int64(f)
	}
	if p := v.AsMap().Get("private"); p.IsString() && p.AsString() != "" {
		b, err := base64.StdEncoding.DecodeString(p.AsString())
		if err != nil {
			return meta{}, fmt.Errorf("output %s: private: %w", StateKey, err)
		}
		m.private = b
	}
	return m, nil
}

// value is StateKey's value.
func (m meta) value() property.Value {
	return property.New(property.NewMap(map[string]property.Value{
		"schemaVersion": property.New(float64(m.version)),
		"private":       property.New(base64.StdEncoding.EncodeToString(m.private)),
	})).WithSecret(true)
}

// rawState is a recorded state as UpgradeResourceState takes it: JSON,
// attributes named as Terraform names them. A state of the current
// version is converted exactly, with the schema; an older one, whose
// schema is not known, with the current schema where its names match and
// otherwise by turning each camelCase name back into snake_case.
// conv is block's conversions.
func rawState(block *tfprotov6.SchemaBlock, conv *tfvalue.Block, current, version int64, outputs property.Map) ([]byte, error) {
	if version == current {
		// without attributes the provider has since dropped
		if j, ok := conv.StateJSON(outputs); ok {
			return j, nil
		}
		v, err := conv.ToTerraform(conv.Known(outputs))
		if err != nil {
			return nil, err
		}
		j, err := jsonOf(conv.Type(), v)
		if err != nil {
			return nil, err
		}
		return json.Marshal(j)
	}
	j, err := legacyObject(block, outputs)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// jsonOf is v as Terraform's JSON state writes it, typ its schema type: a
// value of a dynamic attribute is {"value": ..., "type": ...}.
func jsonOf(typ tftypes.Type, v tftypes.Value) (any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if !v.IsKnown() {
		return nil, fmt.Errorf("unknown value in a state")
	}
	if typ.Is(tftypes.DynamicPseudoType) {
		inner, err := jsonOf(v.Type(), v)
		if err != nil {
			return nil, err
		}
		//lint:ignore SA1019 a dynamic value's state JSON carries its type in Terraform's type JSON, which this writes.
		t, err := v.Type().MarshalJSON()
		if err != nil {
			return nil, err
		}
		return map[string]any{"value": inner, "type": json.RawMessage(t)}, nil
	}
	switch t := typ.(type) {
	case tftypes.List, tftypes.Set, tftypes.Tuple:
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			return nil, err
		}
		out := make([]any, len(elems))
		for i, e := range elems {
			et := e.Type()
			switch t := t.(type) {
			case tftypes.List:
				et = t.ElementType
			case tftypes.Set:
				et = t.ElementType
			case tftypes.Tuple:
				if i < len(t.ElementTypes) {
					et = t.ElementTypes[i]
				}
			}
			j, err := jsonOf(et, e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = j
		}
		return out, nil
	case tftypes.Map, tftypes.Object:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			et := e.Type()
			if mt, ok := t.(tftypes.Map); ok {
				et = mt.ElementType
			} else if at, ok := t.(tftypes.Object).AttributeTypes[k]; ok {
				et = at
			}
			j, err := jsonOf(et, e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = j
		}
		return out, nil
	}
	switch {
	case typ.Is(tftypes.String):
		var s string
		err := v.As(&s)
		return s, err
	case typ.Is(tftypes.Bool):
		var b bool
		err := v.As(&b)
		return b, err
	case typ.Is(tftypes.Number):
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, err
		}
		return json.Number(numberText(&f)), nil
	}
	return nil, fmt.Errorf("cannot write a %s in a state", typ)
}

// numberText is f.Text('g', -1); an integer float64 holds exactly, the
// most common number, takes strconv's shorter way to the same text.
func numberText(f *big.Float) string {
	if f.IsInt() {
		if x, acc := f.Float64(); acc == big.Exact && math.Abs(x) <= 1<<53 {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	return f.Text('g', -1)
}

// legacyObject writes outputs recorded with an older schema as JSON.
func legacyObject(block *tfprotov6.SchemaBlock, m property.Map) (map[string]any, error) {
	types := map[string]tftypes.Type{}
	for _, a := range block.Attributes {
		types[a.Name] = a.ValueType()
	}
	for _, b := range block.BlockTypes {
		types[b.TypeName] = b.ValueType()
	}
	names := map[string]string{} // property name -> Terraform name
	for tf, prop := range tfvalue.PropertyNames(slices.Collect(maps.Keys(types))) {
		names[prop] = tf
	}
	out := map[string]any{}
	for k, v := range m.All {
		name, ok := names[k]
		if !ok {
			name = snake(k)
		}
		if t, ok := types[name]; ok {
			if tv, err := tfvalue.ValueToTerraform(t, v); err == nil {
				if j, err := jsonOf(t, tv); err == nil {
					out[name] = j
					continue
				}
			}
		}
		j, err := legacyJSON(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[name] = j
	}
	return out, nil
}

// legacyJSON writes a value without its type, its objects' keys in
// snake_case.
func legacyJSON(v property.Value) (any, error) {
	switch {
	case v.IsNull():
		return nil, nil
	case v.IsComputed():
		return nil, fmt.Errorf("unknown value in a state")
	case v.IsString():
		return v.AsString(), nil
	case v.IsNumber():
		return v.AsNumber(), nil
	case v.IsBool():
		return v.AsBool(), nil
	case v.IsArray():
		out := make([]any, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			j, err := legacyJSON(e)
			if err != nil {
				return nil, err
			}
			out = append(out, j)
		}
		return out, nil
	case v.IsMap():
		out := map[string]any{}
		for k, e := range v.AsMap().All {
			j, err := legacyJSON(e)
			if err != nil {
				return nil, err
			}
			out[snake(k)] = j
		}
		return out, nil
	}
	return nil, fmt.Errorf("a state cannot hold %v", v)
}

// snake turns a Pulumi name back into a Terraform one: fooBar -> foo_bar.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
