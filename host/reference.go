package host

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/monitorclient"
)

// Resolved is a resource a reference points at, as the engine knows it.
type Resolved struct {
	URN      string
	ID       string // empty for components
	Type     string
	Provider string // "urn::id" of its provider, if any
	State    property.Map
	// Known is false in a preview when the resource is still to be created:
	// its ID and state are not known yet.
	Known bool
}

// Resolve looks up the resource v refers to through the engine's builtin
// pulumi:pulumi:getResource. v is a resource reference, or, where the
// program could not send references, the resource's URN.
func (c *Component) Resolve(ctx context.Context, v property.Value) (Resolved, error) {
	var ref property.ResourceReference
	switch {
	case v.IsComputed():
		return Resolved{}, nil
	case v.IsResourceReference():
		ref = v.AsResourceReference()
	case v.IsString() && urn.URN(v.AsString()).IsValid():
		ref = property.ResourceReference{URN: urn.URN(v.AsString())}
	default:
		return Resolved{}, fmt.Errorf("want a resource reference, got %s", typed.Describe(v))
	}
	if !ref.URN.IsValid() {
		return Resolved{}, fmt.Errorf("malformed resource reference: %q is not a URN", string(ref.URN))
	}
	out := Resolved{URN: string(ref.URN), Type: string(ref.URN.Type())}
	if ref.ID.IsComputed() {
		if !c.info.DryRun {
			return out, fmt.Errorf("the reference to %s has no ID: the resource was never created", out.URN)
		}
		return out, nil // a custom resource not created yet (preview)
	}
	res, err := c.monitor.GetResource(ctx, monitorclient.GetResourceRequest{URN: out.URN})
	if err != nil {
		return out, &StepError{Token: c.token, Name: c.name, Step: "resolve reference to " + out.URN, Err: err}
	}
	out.ID, out.Provider, out.State, out.Known = res.ID, res.Provider, res.State, true
	return out, nil
}
