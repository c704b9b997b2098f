package tfvalue

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Block is a schema block's conversions with what they derive from the
// schema (its shape, property names and Terraform type) worked out once,
// for a resource type to keep across its requests. The block must not
// change afterwards. ToTerraform and FromTerraform of the package work it
// out per call.
type Block struct {
	shape *shape
	names map[string]string
}

// NewBlock is b's conversions.
func NewBlock(b *tfprotov6.SchemaBlock) *Block {
	return &Block{shape: shapeOfBlock(b), names: BlockPropertyNames(b)}
}

// Type is the block's object type, b.ValueType(); it must not be changed.
func (b *Block) Type() tftypes.Type { return b.shape.typ }

// PropertyNames is BlockPropertyNames of the block; it must not be changed.
func (b *Block) PropertyNames() map[string]string { return b.names }

// ToTerraform is ToTerraform of the block.
func (b *Block) ToTerraform(m property.Map) (tftypes.Value, error) {
	return toObject(b.shape, m, "")
}

// FromTerraform is FromTerraform of the block.
func (b *Block) FromTerraform(v tftypes.Value) (property.Map, error) {
	if v.IsNull() {
		return property.Map{}, nil
	}
	if !v.IsKnown() {
		return property.Map{}, errorf("", "the object is unknown")
	}
	return fromObject(b.shape, v, "")
}

// FromTerraformFields is FromTerraform's properties as a Go map, which the
// caller owns: to change before making it a property.Map, without a copy
// per change.
func (b *Block) FromTerraformFields(v tftypes.Value) (map[string]property.Value, error) {
	if v.IsNull() {
		return map[string]property.Value{}, nil
	}
	if !v.IsKnown() {
		return nil, errorf("", "the object is unknown")
	}
	return fromFields(b.shape, v, "")
}

// Known is Known of the block.
func (b *Block) Known(m property.Map) property.Map {
	out := make(map[string]property.Value, len(b.names))
	for _, prop := range b.names {
		if v, ok := m.GetOk(prop); ok {
			out[prop] = v
		}
	}
	return property.NewMap(out)
}

// PropertyError is the error ToTerraform would give for a map holding
// only the property prop, of value v; nil when it converts.
func (b *Block) PropertyError(prop string, v property.Value) error {
	f, ok := b.shape.obj.byProp[prop]
	if !ok {
		return errorf(namePath("", prop), "no such property")
	}
	p := namePath("", f.prop)
	var err error
	if v.IsNull() && f.nesting != tfprotov6.SchemaNestedBlockNestingModeInvalid {
		_, err = emptyBlock(f, p)
	} else {
		_, err = toValue(f.shape, v, p)
	}
	return err
}
