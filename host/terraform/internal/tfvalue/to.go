package tfvalue

import (
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// ToTerraform converts a resource's (or provider's, or data source's)
// property map to a value of block's object type. Absent keys are null,
// except nested blocks, which Terraform never leaves null but for Single:
// an absent (or null) list or set block is an empty list or set, a map
// block an empty map, a group block an object of empty values. Secrets are
// unwrapped (Terraform has no secret values; the schema's sensitive flags
// say it). Computed values become unknowns of the position's type. Keys not
// in the block, values of the wrong kind, assets, archives and resource
// references are errors naming the property path.
func ToTerraform(block *tfprotov6.SchemaBlock, m property.Map) (tftypes.Value, error) {
	s := shapeOfBlock(block)
	return toObject(s, m, "")
}

// ValueToTerraform converts one value to a value of typ (a function
// argument, a dynamic value). Of DynamicPseudoType, the value's type is
// inferred: string, number, bool, array -> tuple, map -> object (keys as
// they are), null -> null.
func ValueToTerraform(typ tftypes.Type, v property.Value) (tftypes.Value, error) {
	return toValue(shapeOfType(typ), v, "")
}

func errorf(path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if path == "" {
		return fmt.Errorf("%s", msg)
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// newValue is tftypes.NewValue without its panic.
func newValue(path string, t tftypes.Type, v any) (tftypes.Value, error) {
	if err := tftypes.ValidateValue(t, v); err != nil {
		return tftypes.Value{}, errorf(path, "%v", err)
	}
	return tftypes.NewValue(t, v), nil
}

func kindOf(v property.Value) string {
	switch {
	case v.IsString():
		return "a string"
	case v.IsNumber():
		return "a number"
	case v.IsBool():
		return "a bool"
	case v.IsArray():
		return "an array"
	case v.IsMap():
		return "a map"
	case v.IsAsset():
		return "an asset"
	case v.IsArchive():
		return "an archive"
	case v.IsResourceReference():
		return "a resource reference"
	case v.IsComputed():
		return "unknown"
	default:
		return "null"
	}
}

func wrongKind(path, want string, v property.Value) error {
	return errorf(path, "expected %s, got %s", want, kindOf(v))
}

func toValue(s *shape, v property.Value, path string) (tftypes.Value, error) {
	if s.kind == kInvalid {
		return tftypes.Value{}, errorf(path, "unsupported Terraform type %v", s.typ)
	}
	switch {
	case v.IsComputed():
		return tftypes.NewValue(s.typ, tftypes.UnknownValue), nil
	case v.IsNull():
		return tftypes.NewValue(s.typ, nil), nil
	case v.IsAsset(), v.IsArchive(), v.IsResourceReference():
		return tftypes.Value{}, errorf(path, "%s has no Terraform value", kindOf(v))
	}
	switch s.kind {
	case kString:
		if !v.IsString() {
			return tftypes.Value{}, wrongKind(path, "a string", v)
		}
		return tftypes.NewValue(s.typ, v.AsString()), nil
	case kNumber:
		if !v.IsNumber() {
			return tftypes.Value{}, wrongKind(path, "a number", v)
		}
		return number(path, s.typ, v.AsNumber())
	case kBool:
		if !v.IsBool() {
			return tftypes.Value{}, wrongKind(path, "a bool", v)
		}
		return tftypes.NewValue(s.typ, v.AsBool()), nil
	case kDynamic:
		return toDynamic(v, path)
	case kList, kSet:
		if !v.IsArray() {
			return tftypes.Value{}, wrongKind(path, "an array", v)
		}
		elems := make([]tftypes.Value, 0, v.AsArray().Len())
		for i, e := range v.AsArray().All {
			ev, err := toValue(s.elem, e, indexPath(path, i))
			if err != nil {
				return tftypes.Value{}, err
			}
			elems = append(elems, ev)
		}
		return newValue(path, s.typ, elems)
	case kTuple:
		if !v.IsArray() {
			return tftypes.Value{}, wrongKind(path, "an array", v)
		}
		if n := v.AsArray().Len(); n != len(s.elems) {
			return tftypes.Value{}, errorf(path, "expected %d elements, got %d", len(s.elems), n)
		}
		elems := make([]tftypes.Value, len(s.elems))
		for i, e := range v.AsArray().All {
			ev, err := toValue(s.elems[i], e, indexPath(path, i))
			if err != nil {
				return tftypes.Value{}, err
			}
			elems[i] = ev
		}
		return newValue(path, s.typ, elems)
	case kMap:
		if !v.IsMap() {
			return tftypes.Value{}, wrongKind(path, "a map", v)
		}
		elems := make(map[string]tftypes.Value, v.AsMap().Len())
		for k, e := range v.AsMap().AllStable {
			ev, err := toValue(s.elem, e, keyPath(path, k))
			if err != nil {
				return tftypes.Value{}, err
			}
			elems[k] = ev
		}
		return newValue(path, s.typ, elems)
	case kObject:
		if !v.IsMap() {
			return tftypes.Value{}, wrongKind(path, "a map", v)
		}
		return toObject(s, v.AsMap(), path)
	}
	return tftypes.Value{}, errorf(path, "unsupported Terraform type %v", s.typ)
}

func number(path string, t tftypes.Type, f float64) (tftypes.Value, error) {
	if math.IsNaN(f) {
		return tftypes.Value{}, errorf(path, "NaN is not a Terraform number")
	}
	return tftypes.NewValue(t, big.NewFloat(f)), nil
}

func toObject(s *shape, m property.Map, path string) (tftypes.Value, error) {
	for k := range m.AllStable {
		if _, ok := s.obj.byProp[k]; !ok {
			return tftypes.Value{}, errorf(namePath(path, k), "no such property")
		}
	}
	attrs := make(map[string]tftypes.Value, len(s.obj.order))
	for _, f := range s.obj.order {
		p := namePath(path, f.prop)
		v := m.Get(f.prop)
		var (
			tv  tftypes.Value
			err error
		)
		if v.IsNull() && f.nesting != tfprotov6.SchemaNestedBlockNestingModeInvalid {
			tv, err = emptyBlock(f, p)
		} else {
			tv, err = toValue(f.shape, v, p)
		}
		if err != nil {
			return tftypes.Value{}, err
		}
		attrs[f.tf] = tv
	}
	return newValue(path, s.typ, attrs)
}

// emptyBlock is the value of an absent nested block.
func emptyBlock(f *field, path string) (tftypes.Value, error) {
	switch f.nesting {
	case tfprotov6.SchemaNestedBlockNestingModeList, tfprotov6.SchemaNestedBlockNestingModeSet:
		return newValue(path, f.shape.typ, []tftypes.Value{})
	case tfprotov6.SchemaNestedBlockNestingModeMap:
		return newValue(path, f.shape.typ, map[string]tftypes.Value{})
	case tfprotov6.SchemaNestedBlockNestingModeGroup:
		return toObject(f.shape, property.Map{}, path)
	}
	return tftypes.NewValue(f.shape.typ, nil), nil
}

// toDynamic infers a value's Terraform type.
func toDynamic(v property.Value, path string) (tftypes.Value, error) {
	switch {
	case v.IsComputed():
		return tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue), nil
	case v.IsNull():
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil), nil
	case v.IsString():
		return tftypes.NewValue(tftypes.String, v.AsString()), nil
	case v.IsNumber():
		return number(path, tftypes.Number, v.AsNumber())
	case v.IsBool():
		return tftypes.NewValue(tftypes.Bool, v.AsBool()), nil
	case v.IsArray():
		elems := make([]tftypes.Value, 0, v.AsArray().Len())
		types := make([]tftypes.Type, 0, v.AsArray().Len())
		for i, e := range v.AsArray().All {
			ev, err := toDynamic(e, indexPath(path, i))
			if err != nil {
				return tftypes.Value{}, err
			}
			elems = append(elems, ev)
			types = append(types, ev.Type())
		}
		return newValue(path, tftypes.Tuple{ElementTypes: types}, elems)
	case v.IsMap():
		attrs := make(map[string]tftypes.Value, v.AsMap().Len())
		types := make(map[string]tftypes.Type, v.AsMap().Len())
		for k, e := range v.AsMap().AllStable {
			ev, err := toDynamic(e, keyPath(path, k))
			if err != nil {
				return tftypes.Value{}, err
			}
			attrs[k] = ev
			types[k] = ev.Type()
		}
		return newValue(path, tftypes.Object{AttributeTypes: types}, attrs)
	}
	return tftypes.Value{}, errorf(path, "%s has no Terraform value", kindOf(v))
}
