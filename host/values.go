package host

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/monitorclient"
)

// Apply derives a value from others as an output's apply does: unknown if
// any is, secret if any is, depending on all they depend on.
func Apply(f func(vals ...property.Value) property.Value, vals ...property.Value) property.Value {
	v, _ := ApplyErr(func(vals ...property.Value) (property.Value, error) { return f(vals...), nil }, vals...)
	return v
}

// ApplyErr is [Apply] for f that can fail; f does not run while an input
// is unknown.
func ApplyErr(f func(vals ...property.Value) (property.Value, error), vals ...property.Value) (property.Value, error) {
	var deps []urn.URN
	seen := map[urn.URN]bool{}
	secret, unknown := false, false
	plain := make([]property.Value, len(vals))
	for i, v := range vals {
		for _, d := range monitorclient.Dependencies(v) {
			if !seen[d] {
				seen[d] = true
				deps = append(deps, d)
			}
		}
		secret = secret || v.HasSecrets()
		unknown = unknown || v.HasComputed()
		plain[i] = stripMarkers(v)
	}
	out := property.New(property.Computed)
	if !unknown {
		var err error
		if out, err = f(plain...); err != nil {
			return property.Value{}, err
		}
	}
	return out.WithSecret(secret || out.Secret()).WithDependencies(deps), nil
}

// stripMarkers removes secret and dependency markers from v and inside it.
func stripMarkers(v property.Value) property.Value {
	switch {
	case v.IsArray():
		arr := make([]property.Value, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			arr = append(arr, stripMarkers(e))
		}
		return property.New(arr)
	case v.IsMap():
		m := make(map[string]property.Value, v.AsMap().Len())
		for k, e := range v.AsMap().All {
			m[k] = stripMarkers(e)
		}
		return property.New(m)
	}
	return v.WithSecret(false).WithDependencies(nil)
}

// Encode turns a struct with `pulumi:"name"` tags into a property map.
func Encode(v any) (property.Map, error) { return typed.Encode(v) }

// Decode fills the struct dst points to from m; the inverse of [Encode].
func Decode(m property.Map, dst any) error { return core.Decode(m, dst) }

// InPreview reports whether the engine called the function during a
// preview, where it says so (not in Check and Diff).
func InPreview(ctx context.Context) bool { return core.InPreview(ctx) }
