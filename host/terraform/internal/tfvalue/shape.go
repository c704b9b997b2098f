package tfvalue

import (
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A shape is a Terraform type with what the schema adds to it: property
// names of object attributes, sensitivity, and nested-block nesting.
type shape struct {
	typ   tftypes.Type
	kind  kind
	elem  *shape   // list, set, map
	elems []*shape // tuple
	obj   *object  // object
}

type kind int

const (
	kString kind = iota
	kNumber
	kBool
	kDynamic
	kList
	kSet
	kMap
	kTuple
	kObject
	kInvalid
)

type object struct {
	fields map[string]*field // by Terraform name
	byProp map[string]*field
	order  []*field // by Terraform name
}

type field struct {
	tf, prop  string
	shape     *shape
	sensitive bool
	// nesting is the block's nesting mode; Invalid (0) for attributes.
	nesting tfprotov6.SchemaNestedBlockNestingMode
}

func newObject(fs []*field) *object {
	sort.Slice(fs, func(i, j int) bool { return fs[i].tf < fs[j].tf })
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.tf
	}
	props := PropertyNames(names)
	o := &object{fields: map[string]*field{}, byProp: map[string]*field{}, order: fs}
	for _, f := range fs {
		f.prop = props[f.tf]
		o.fields[f.tf] = f
		o.byProp[f.prop] = f
	}
	return o
}

// shapeOfType is the shape of a type without a schema: nothing sensitive.
func shapeOfType(t tftypes.Type) *shape {
	s := &shape{typ: t, kind: kInvalid}
	switch t := t.(type) {
	case nil:
	case tftypes.List:
		s.kind, s.elem = kList, shapeOfType(t.ElementType)
	case tftypes.Set:
		s.kind, s.elem = kSet, shapeOfType(t.ElementType)
	case tftypes.Map:
		s.kind, s.elem = kMap, shapeOfType(t.ElementType)
	case tftypes.Tuple:
		s.kind = kTuple
		for _, e := range t.ElementTypes {
			s.elems = append(s.elems, shapeOfType(e))
		}
	case tftypes.Object:
		s.kind = kObject
		fs := make([]*field, 0, len(t.AttributeTypes))
		for n, at := range t.AttributeTypes {
			fs = append(fs, &field{tf: n, shape: shapeOfType(at)})
		}
		s.obj = newObject(fs)
	default:
		switch {
		case t.Is(tftypes.String):
			s.kind = kString
		case t.Is(tftypes.Number):
			s.kind = kNumber
		case t.Is(tftypes.Bool):
			s.kind = kBool
		case t.Is(tftypes.DynamicPseudoType):
			s.kind = kDynamic
		}
	}
	return s
}

// shapeOfBlock is the object shape of a block; its type is b.ValueType().
func shapeOfBlock(b *tfprotov6.SchemaBlock) *shape {
	s := &shape{typ: b.ValueType(), kind: kObject}
	var fs []*field
	if b != nil {
		for _, a := range b.Attributes {
			if f := attributeField(a); f != nil {
				fs = append(fs, f)
			}
		}
		for _, nb := range b.BlockTypes {
			if nb == nil || nb.ValueType() == nil {
				continue
			}
			inner := shapeOfBlock(nb.Block)
			f := &field{tf: nb.TypeName, nesting: nb.Nesting}
			switch nb.Nesting {
			case tfprotov6.SchemaNestedBlockNestingModeList:
				f.shape = &shape{typ: nb.ValueType(), kind: kList, elem: inner}
			case tfprotov6.SchemaNestedBlockNestingModeSet:
				f.shape = &shape{typ: nb.ValueType(), kind: kSet, elem: inner}
			case tfprotov6.SchemaNestedBlockNestingModeMap:
				f.shape = &shape{typ: nb.ValueType(), kind: kMap, elem: inner}
			default: // single, group
				f.shape = inner
			}
			fs = append(fs, f)
		}
	}
	s.obj = newObject(fs)
	return s
}

func attributeField(a *tfprotov6.SchemaAttribute) *field {
	if a == nil || a.ValueType() == nil {
		return nil
	}
	f := &field{tf: a.Name, sensitive: a.Sensitive}
	if a.NestedType == nil {
		f.shape = shapeOfType(a.Type)
		return f
	}
	var fs []*field
	for _, na := range a.NestedType.Attributes {
		if nf := attributeField(na); nf != nil {
			fs = append(fs, nf)
		}
	}
	typ := a.NestedType.ValueType()
	inner := &shape{kind: kObject, obj: newObject(fs)}
	switch a.NestedType.Nesting {
	case tfprotov6.SchemaObjectNestingModeList:
		inner.typ = typ.(tftypes.List).ElementType
		f.shape = &shape{typ: typ, kind: kList, elem: inner}
	case tfprotov6.SchemaObjectNestingModeSet:
		inner.typ = typ.(tftypes.Set).ElementType
		f.shape = &shape{typ: typ, kind: kSet, elem: inner}
	case tfprotov6.SchemaObjectNestingModeMap:
		inner.typ = typ.(tftypes.Map).ElementType
		f.shape = &shape{typ: typ, kind: kMap, elem: inner}
	default:
		inner.typ = typ
		f.shape = inner
	}
	return f
}
