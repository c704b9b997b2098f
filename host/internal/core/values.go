package core

import (
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// dependingOn marks v and every value inside it as depending on u.
func dependingOn(v property.Value, u urn.URN) property.Value {
	switch {
	case v.IsArray():
		arr := make([]property.Value, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			arr = append(arr, dependingOn(e, u))
		}
		v = property.WithGoValue(v, arr)
	case v.IsMap():
		m := make(map[string]property.Value, v.AsMap().Len())
		for k, e := range v.AsMap().All {
			m[k] = dependingOn(e, u)
		}
		v = property.WithGoValue(v, m)
	}
	return v.WithDependencies(appendUnique(v.Dependencies(), u))
}

// markSecret marks the named top-level keys of m secret.
func markSecret(m property.Map, keys []string) property.Map {
	for _, k := range keys {
		if v, ok := m.GetOk(k); ok {
			m = m.Set(k, v.WithSecret(true))
		}
	}
	return m
}

func withoutKey[V any](m map[string]V, key string) map[string]V {
	if _, ok := m[key]; !ok {
		return m
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func without(list []string, s string) []string {
	out := make([]string, 0, len(list))
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
