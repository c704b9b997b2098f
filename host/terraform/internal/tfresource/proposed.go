package tfresource

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// proposedNew is the new state Terraform proposes to a provider's
// PlanResourceChange: the configuration, with the prior state's value of
// each computed attribute the configuration leaves null. Nested blocks and
// nested attributes are matched element by element: lists by index, maps
// by key, sets by the prior element whose non-computed values the
// configured one has. The prior state is wholly known; the configuration
// may hold unknowns.
func proposedNew(b *tfprotov6.SchemaBlock, prior, config tftypes.Value) (tftypes.Value, error) {
	if config.IsNull() && prior.IsNull() {
		return prior, nil
	}
	if prior.IsNull() && config.IsKnown() {
		return config, nil // nothing to carry over, at any depth
	}
	return proposedBlock(b, prior, config)
}

func proposedBlock(b *tfprotov6.SchemaBlock, prior, config tftypes.Value) (tftypes.Value, error) {
	if config.IsNull() || !config.IsKnown() {
		return prior, nil
	}
	priorM, configM, err := objects(prior, config)
	if err != nil {
		return tftypes.Value{}, err
	}
	out, err := proposedAttributes(b.Attributes, priorM, configM)
	if err != nil {
		return tftypes.Value{}, err
	}
	for _, nb := range b.BlockTypes {
		p, c := attr(priorM, configM, nb.TypeName)
		if out[nb.TypeName], err = proposedNestedBlock(nb, p, c); err != nil {
			return tftypes.Value{}, fmt.Errorf("%s: %w", nb.TypeName, err)
		}
	}
	return newValue(config.Type(), out)
}

func proposedAttributes(attrs []*tfprotov6.SchemaAttribute, priorM, configM map[string]tftypes.Value) (map[string]tftypes.Value, error) {
	out := make(map[string]tftypes.Value, len(configM))
	for name, v := range configM {
		out[name] = v // attributes the schema does not name stay as configured
	}
	for _, a := range attrs {
		p, c := attr(priorM, configM, a.Name)
		switch {
		case a.Computed && c.IsNull():
			out[a.Name] = p
			if a.Optional && a.NestedType != nil && setByConfig(a.NestedType, p) {
				out[a.Name] = c // the prior value came from a configuration, now gone
			}
		case a.NestedType != nil:
			v, err := proposedNestedType(a.NestedType, p, c)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a.Name, err)
			}
			out[a.Name] = v
		default:
			out[a.Name] = c
		}
	}
	return out, nil
}

func proposedNestedBlock(nb *tfprotov6.SchemaNestedBlock, prior, config tftypes.Value) (tftypes.Value, error) {
	if !config.IsKnown() {
		return config, nil
	}
	elem := func(p, c tftypes.Value) (tftypes.Value, error) { return proposedBlock(nb.Block, p, c) }
	match := func(p, c tftypes.Value) bool { return priorOf(nb.Block.Attributes, nb.Block.BlockTypes, p, c) }
	switch nb.Nesting {
	case tfprotov6.SchemaNestedBlockNestingModeSingle, tfprotov6.SchemaNestedBlockNestingModeGroup:
		if config.IsNull() {
			return config, nil
		}
		return proposedBlock(nb.Block, prior, config)
	case tfprotov6.SchemaNestedBlockNestingModeList:
		return proposedList(prior, config, elem)
	case tfprotov6.SchemaNestedBlockNestingModeMap:
		return proposedMap(prior, config, elem)
	case tfprotov6.SchemaNestedBlockNestingModeSet:
		return proposedSet(prior, config, elem, match)
	}
	return config, nil
}

func proposedNestedType(o *tfprotov6.SchemaObject, prior, config tftypes.Value) (tftypes.Value, error) {
	if !config.IsKnown() {
		return config, nil
	}
	elem := func(p, c tftypes.Value) (tftypes.Value, error) {
		if c.IsNull() || !c.IsKnown() {
			return c, nil
		}
		pm, cm, err := objects(p, c)
		if err != nil {
			return tftypes.Value{}, err
		}
		out, err := proposedAttributes(o.Attributes, pm, cm)
		if err != nil {
			return tftypes.Value{}, err
		}
		return newValue(c.Type(), out)
	}
	match := func(p, c tftypes.Value) bool { return priorOf(o.Attributes, nil, p, c) }
	switch o.Nesting {
	case tfprotov6.SchemaObjectNestingModeSingle:
		return elem(prior, config)
	case tfprotov6.SchemaObjectNestingModeList:
		return proposedList(prior, config, elem)
	case tfprotov6.SchemaObjectNestingModeMap:
		return proposedMap(prior, config, elem)
	case tfprotov6.SchemaObjectNestingModeSet:
		return proposedSet(prior, config, elem, match)
	}
	return config, nil
}

type elemFunc func(prior, config tftypes.Value) (tftypes.Value, error)

// proposedList matches elements by index.
func proposedList(prior, config tftypes.Value, elem elemFunc) (tftypes.Value, error) {
	var ps, cs []tftypes.Value
	if config.IsNull() {
		return config, nil
	}
	if err := config.As(&cs); err != nil {
		return tftypes.Value{}, err
	}
	if !prior.IsNull() && prior.IsKnown() {
		if err := prior.As(&ps); err != nil {
			return tftypes.Value{}, err
		}
	}
	out := make([]tftypes.Value, len(cs))
	for i, c := range cs {
		out[i] = c
		if i < len(ps) {
			v, err := elem(ps[i], c)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = v
		}
	}
	return newValue(config.Type(), out)
}

// proposedMap matches elements by key.
func proposedMap(prior, config tftypes.Value, elem elemFunc) (tftypes.Value, error) {
	var ps, cs map[string]tftypes.Value
	if config.IsNull() {
		return config, nil
	}
	if err := config.As(&cs); err != nil {
		return tftypes.Value{}, err
	}
	if !prior.IsNull() && prior.IsKnown() {
		if err := prior.As(&ps); err != nil {
			return tftypes.Value{}, err
		}
	}
	out := make(map[string]tftypes.Value, len(cs))
	for k, c := range cs {
		out[k] = c
		if p, ok := ps[k]; ok {
			v, err := elem(p, c)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("[%q]: %w", k, err)
			}
			out[k] = v
		}
	}
	return newValue(config.Type(), out)
}

// proposedSet matches each configured element with the first unused prior
// element it could have come from.
func proposedSet(prior, config tftypes.Value, elem elemFunc, match func(p, c tftypes.Value) bool) (tftypes.Value, error) {
	var ps, cs []tftypes.Value
	if config.IsNull() {
		return config, nil
	}
	if err := config.As(&cs); err != nil {
		return tftypes.Value{}, err
	}
	if !prior.IsNull() && prior.IsKnown() {
		if err := prior.As(&ps); err != nil {
			return tftypes.Value{}, err
		}
	}
	used := make([]bool, len(ps))
	out := make([]tftypes.Value, len(cs))
	for i, c := range cs {
		p := tftypes.NewValue(c.Type(), nil)
		for j, pj := range ps {
			if !used[j] && match(pj, c) {
				p, used[j] = pj, true
				break
			}
		}
		v, err := elem(p, c)
		if err != nil {
			return tftypes.Value{}, err
		}
		out[i] = v
	}
	return newValue(config.Type(), out)
}

// priorOf reports whether prior could have come from config: equal, but
// for computed attributes config leaves null. Nested blocks and nested
// attributes must be equal.
func priorOf(attrs []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock, prior, config tftypes.Value) bool {
	if prior.Equal(config) {
		return true
	}
	pm, cm, err := objects(prior, config)
	if err != nil || prior.IsNull() || config.IsNull() {
		return false
	}
	for _, a := range attrs {
		p, c := attr(pm, cm, a.Name)
		if !p.Equal(c) && !(a.Computed && c.IsNull()) {
			return false
		}
	}
	for _, b := range blocks {
		if p, c := attr(pm, cm, b.TypeName); !p.Equal(c) {
			return false
		}
	}
	return true
}

// setByConfig reports whether a nested attribute's value holds a non-null
// value of a non-computed attribute, so a configuration set it.
func setByConfig(o *tfprotov6.SchemaObject, v tftypes.Value) bool {
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	var elems []tftypes.Value
	switch o.Nesting {
	case tfprotov6.SchemaObjectNestingModeSingle:
		elems = []tftypes.Value{v}
	case tfprotov6.SchemaObjectNestingModeMap:
		var m map[string]tftypes.Value
		if v.As(&m) != nil {
			return false
		}
		for _, e := range m {
			elems = append(elems, e)
		}
	default:
		if v.As(&elems) != nil {
			return false
		}
	}
	for _, e := range elems {
		var m map[string]tftypes.Value
		if e.IsNull() || !e.IsKnown() || e.As(&m) != nil {
			continue
		}
		for _, a := range o.Attributes {
			av, ok := m[a.Name]
			if !ok || av.IsNull() {
				continue
			}
			if !a.Computed || (a.NestedType != nil && setByConfig(a.NestedType, av)) {
				return true
			}
		}
	}
	return false
}

// objects are the attributes of two object values; a null or unknown one
// has none.
func objects(prior, config tftypes.Value) (map[string]tftypes.Value, map[string]tftypes.Value, error) {
	var pm, cm map[string]tftypes.Value
	if !prior.IsNull() && prior.IsKnown() {
		if err := prior.As(&pm); err != nil {
			return nil, nil, err
		}
	}
	if !config.IsNull() && config.IsKnown() {
		if err := config.As(&cm); err != nil {
			return nil, nil, err
		}
	}
	return pm, cm, nil
}

// attr is attribute name of the prior and config objects, each null of the
// other's type (or dynamic) when absent.
func attr(pm, cm map[string]tftypes.Value, name string) (tftypes.Value, tftypes.Value) {
	p, pok := pm[name]
	c, cok := cm[name]
	switch {
	case !pok && !cok:
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil), tftypes.NewValue(tftypes.DynamicPseudoType, nil)
	case !pok:
		p = tftypes.NewValue(c.Type(), nil)
	case !cok:
		c = tftypes.NewValue(p.Type(), nil)
	}
	return p, c
}

// newValue is tftypes.NewValue, a mistyped value an error, not a panic.
func newValue(t tftypes.Type, v any) (tftypes.Value, error) {
	if err := tftypes.ValidateValue(t, v); err != nil {
		return tftypes.Value{}, err
	}
	return tftypes.NewValue(t, v), nil
}
