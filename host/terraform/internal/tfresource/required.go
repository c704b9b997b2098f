package tfresource

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// missing reports what Terraform itself checks of a configuration, not
// the provider: required attributes left null, and blocks fewer or more
// than the schema allows. Unknown values pass.
func missing(b *tfprotov6.SchemaBlock, v tftypes.Value, at *tftypes.AttributePath, add func(*tftypes.AttributePath, string)) {
	var m map[string]tftypes.Value
	if v.IsNull() || !v.IsKnown() || v.As(&m) != nil {
		return
	}
	missingAttributes(b.Attributes, m, at, add)
	for _, nb := range b.BlockTypes {
		p := at.WithAttributeName(nb.TypeName)
		bv, ok := m[nb.TypeName]
		if ok && !bv.IsKnown() {
			continue
		}
		if nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeSingle || nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeGroup {
			if !ok || bv.IsNull() {
				if nb.MinItems > 0 {
					add(p, "a block is required")
				}
				continue
			}
			missing(nb.Block, bv, p, add)
			continue
		}
		elems, paths := elements(bv, p)
		switch n := int64(len(elems)); {
		case n < nb.MinItems:
			add(p, fmt.Sprintf("at least %d blocks are required, not %d", nb.MinItems, n))
		case nb.MaxItems > 0 && n > nb.MaxItems:
			add(p, fmt.Sprintf("at most %d blocks are allowed, not %d", nb.MaxItems, n))
		}
		for i, e := range elems {
			missing(nb.Block, e, paths[i], add)
		}
	}
}

func missingAttributes(attrs []*tfprotov6.SchemaAttribute, m map[string]tftypes.Value, at *tftypes.AttributePath, add func(*tftypes.AttributePath, string)) {
	for _, a := range attrs {
		p := at.WithAttributeName(a.Name)
		v, ok := m[a.Name]
		if !ok || v.IsNull() {
			if a.Required {
				add(p, "a value is required")
			}
			continue
		}
		if a.NestedType == nil || !v.IsKnown() {
			continue
		}
		elems, paths := []tftypes.Value{v}, []*tftypes.AttributePath{p}
		if a.NestedType.Nesting != tfprotov6.SchemaObjectNestingModeSingle {
			elems, paths = elements(v, p)
		}
		for i, e := range elems {
			var em map[string]tftypes.Value
			if e.IsNull() || !e.IsKnown() || e.As(&em) != nil {
				continue
			}
			missingAttributes(a.NestedType.Attributes, em, paths[i], add)
		}
	}
}

// elements are the elements of a list, set or map and their paths.
func elements(v tftypes.Value, at *tftypes.AttributePath) ([]tftypes.Value, []*tftypes.AttributePath) {
	if v.IsNull() || !v.IsKnown() {
		return nil, nil
	}
	var elems []tftypes.Value
	var paths []*tftypes.AttributePath
	switch {
	case v.Type().Is(tftypes.Map{}) || v.Type().Is(tftypes.Object{}):
		var m map[string]tftypes.Value
		if v.As(&m) != nil {
			return nil, nil
		}
		for k, e := range m {
			elems, paths = append(elems, e), append(paths, at.WithElementKeyString(k))
		}
	case v.Type().Is(tftypes.Set{}):
		if v.As(&elems) != nil {
			return nil, nil
		}
		for _, e := range elems {
			paths = append(paths, at.WithElementKeyValue(e))
		}
	default:
		if v.As(&elems) != nil {
			return nil, nil
		}
		for i := range elems {
			paths = append(paths, at.WithElementKeyInt(i))
		}
	}
	return elems, paths
}
