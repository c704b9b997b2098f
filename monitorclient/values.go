package monitorclient

import (
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Dependencies returns the URNs recorded as dependencies on v or anywhere
// inside it, sorted and without duplicates.
func Dependencies(v property.Value) []urn.URN {
	out := appendDependencies(nil, v)
	slices.Sort(out)
	return slices.Compact(out)
}

func appendDependencies(out []urn.URN, v property.Value) []urn.URN {
	out = append(out, v.Dependencies()...)
	switch {
	case v.IsArray():
		for _, e := range v.AsArray().All {
			out = appendDependencies(out, e)
		}
	case v.IsMap():
		for _, e := range v.AsMap().All {
			out = appendDependencies(out, e)
		}
	}
	return out
}

// DependencyMap lists, per top-level key of m, the URNs its value depends
// on (see [Dependencies]); keys without dependencies are left out. This is
// the shape of stateDependencies and returnDependencies.
func DependencyMap(m property.Map) map[string][]urn.URN {
	out := map[string][]urn.URN{}
	for k, v := range m.All {
		if deps := Dependencies(v); len(deps) > 0 {
			out[k] = deps
		}
	}
	return out
}
