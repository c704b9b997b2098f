package tfvalue

import (
	"math"
	"math/big"
	"strconv"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// FromTerraform converts a value of block's object type back. Null
// attributes are left out (at every level of objects, except inside dynamic
// values). Unknowns become computed values. Attributes marked Sensitive (at
// any depth, also inside nested attributes and blocks) become secret. A
// null value is an empty map; an unknown one is an error.
func FromTerraform(block *tfprotov6.SchemaBlock, v tftypes.Value) (property.Map, error) {
	if v.IsNull() {
		return property.Map{}, nil
	}
	return (&Block{shape: shapeOfBlock(block)}).FromTerraform(v)
}

// ValueFromTerraform converts one value back (a function result, a dynamic
// value), taking v's own type as its declared type: object attributes are
// renamed. For a value declared DynamicPseudoType use ValueFromTerraformOf.
func ValueFromTerraform(v tftypes.Value) (property.Value, error) {
	return ValueFromTerraformOf(v.Type(), v)
}

// ValueFromTerraformOf converts v, declared of type typ, back. Inside a
// DynamicPseudoType position object attribute names are kept as they are
// and null attributes are kept, so that ValueToTerraform gives v back.
func ValueFromTerraformOf(typ tftypes.Type, v tftypes.Value) (property.Value, error) {
	return fromValue(shapeOfType(typ), v, "")
}

func fromValue(s *shape, v tftypes.Value, path string) (property.Value, error) {
	if !v.IsKnown() {
		return property.New(property.Computed), nil
	}
	if v.IsNull() {
		return property.Value{}, nil
	}
	switch s.kind {
	case kString:
		var x string
		if err := v.As(&x); err != nil {
			return property.Value{}, errorf(path, "%v", err)
		}
		return property.New(x), nil
	case kNumber:
		return fromNumber(v, path)
	case kBool:
		var x bool
		if err := v.As(&x); err != nil {
			return property.Value{}, errorf(path, "%v", err)
		}
		return property.New(x), nil
	case kDynamic:
		return fromDynamic(v, path)
	case kList, kSet, kTuple:
		var xs []tftypes.Value
		if err := v.As(&xs); err != nil {
			return property.Value{}, errorf(path, "%v", err)
		}
		if s.kind == kTuple && len(xs) != len(s.elems) {
			return property.Value{}, errorf(path, "expected %d elements, got %d", len(s.elems), len(xs))
		}
		out := make([]property.Value, len(xs))
		for i, x := range xs {
			es := s.elem
			if s.kind == kTuple {
				es = s.elems[i]
			}
			e, err := fromValue(es, x, indexPath(path, i))
			if err != nil {
				return property.Value{}, err
			}
			out[i] = e
		}
		return property.New(out), nil
	case kMap:
		var xs map[string]tftypes.Value
		if err := v.As(&xs); err != nil {
			return property.Value{}, errorf(path, "%v", err)
		}
		out := make(map[string]property.Value, len(xs))
		for k, x := range xs {
			e, err := fromValue(s.elem, x, keyPath(path, k))
			if err != nil {
				return property.Value{}, err
			}
			out[k] = e
		}
		return property.New(out), nil
	case kObject:
		m, err := fromObject(s, v, path)
		if err != nil {
			return property.Value{}, err
		}
		return property.New(m), nil
	}
	return property.Value{}, errorf(path, "unsupported Terraform type %v", s.typ)
}

func fromObject(s *shape, v tftypes.Value, path string) (property.Map, error) {
	out, err := fromFields(s, v, path)
	if err != nil {
		return property.Map{}, err
	}
	return property.NewMap(out), nil
}

// fromFields is fromObject's map, not yet a property.Map.
func fromFields(s *shape, v tftypes.Value, path string) (map[string]property.Value, error) {
	var xs map[string]tftypes.Value
	if err := v.As(&xs); err != nil {
		return nil, errorf(path, "%v", err)
	}
	out := make(map[string]property.Value, len(xs))
	for n, x := range xs {
		f, ok := s.obj.fields[n]
		if !ok {
			return nil, errorf(namePath(path, n), "attribute %q is not in the schema", n)
		}
		if x.IsKnown() && x.IsNull() {
			continue
		}
		e, err := fromValue(f.shape, x, namePath(path, f.prop))
		if err != nil {
			return nil, err
		}
		if f.sensitive {
			e = e.WithSecret(true)
		}
		out[f.prop] = e
	}
	return out, nil
}

// fromDynamic converts a value by its own concrete type, keeping object
// attribute names and nulls.
func fromDynamic(v tftypes.Value, path string) (property.Value, error) {
	if !v.IsKnown() {
		return property.New(property.Computed), nil
	}
	if v.IsNull() {
		return property.Value{}, nil
	}
	t := v.Type()
	switch {
	case t.Is(tftypes.String):
		return fromValue(&shape{typ: t, kind: kString}, v, path)
	case t.Is(tftypes.Number):
		return fromNumber(v, path)
	case t.Is(tftypes.Bool):
		return fromValue(&shape{typ: t, kind: kBool}, v, path)
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}), t.Is(tftypes.Tuple{}):
		var xs []tftypes.Value
		if err := v.As(&xs); err != nil {
			return property.Value{}, errorf(path, "%v", err)
		}
		out := make([]property.Value, len(xs))
		for i, x := range xs {
			e, err := fromDynamic(x, indexPath(path, i))
			if err != nil {
				return property.Value{}, err
			}
			out[i] = e
		}
		return property.New(out), nil
	case t.Is(tftypes.Map{}), t.Is(tftypes.Object{}):
		var xs map[string]tftypes.Value
		if err := v.As(&xs); err != nil {
			return property.Value{}, errorf(path, "%v", err)
		}
		out := make(map[string]property.Value, len(xs))
		for k, x := range xs {
			e, err := fromDynamic(x, keyPath(path, k))
			if err != nil {
				return property.Value{}, err
			}
			out[k] = e
		}
		return property.New(out), nil
	}
	// A DynamicPseudoType value built in Go rather than decoded.
	var (
		str string
		b   bool
		f   big.Float
	)
	switch {
	case v.As(&str) == nil:
		return property.New(str), nil
	case v.As(&b) == nil:
		return property.New(b), nil
	case v.As(&f) == nil:
		return fromNumber(v, path)
	}
	return property.Value{}, errorf(path, "a value of type %v has no concrete type", t)
}

// numbers are big.Floats for fromNumber to copy a number into: a fresh one
// costs two allocations a number (the Float and its mantissa).
var numbers = sync.Pool{New: func() any { return new(big.Float) }}

func fromNumber(v tftypes.Value, path string) (property.Value, error) {
	f := numbers.Get().(*big.Float)
	defer numbers.Put(f)
	if err := v.As(f); err != nil {
		return property.Value{}, errorf(path, "%v", err)
	}
	x, ok := toFloat64(f)
	if !ok {
		return property.Value{}, errorf(path, "the number %s does not fit a float64 exactly", f.Text('g', -1))
	}
	return property.New(x), nil
}

// toFloat64 converts f when float64 holds it exactly, or when f is the
// shortest decimal form of the nearest float64 (a decimal such as 0.1 parsed
// at a higher precision).
func toFloat64(f *big.Float) (float64, bool) {
	x, acc := f.Float64()
	if acc == big.Exact || f.IsInf() {
		return x, true
	}
	if math.IsInf(x, 0) || x == 0 {
		return 0, false
	}
	return x, f.Text('e', -1) == strconv.FormatFloat(x, 'e', -1, 64)
}
