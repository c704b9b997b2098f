package core

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/monitorclient"
)

// Resolved is a resource a reference points at, as the engine knows it
// (host.Resolved).
type Resolved struct {
	URN urn.URN
	// ID is empty for components, and in a preview for a custom resource
	// still to be created.
	ID       resource.ID
	Type     string
	Provider providers.Reference // its provider; zero if none
	// State is the resource's outputs, secrets kept; every value in it, at
	// any depth, depends on the resource, so values derived from it do too.
	State property.Map
	// Known is false when the engine could not say, in a preview, what a
	// reference without an ID points at: ID and State are then empty.
	Known bool
}

// Resolve looks up the resource v refers to (host.Component.Resolve).
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
	out := Resolved{URN: ref.URN, Type: string(ref.URN.Type())}
	res, err := c.monitor.GetResource(ctx, monitorclient.GetResourceRequest{URN: out.URN})
	if err != nil {
		if c.info.DryRun && ref.ID.IsComputed() {
			return out, nil // not known to the engine yet: a preview must not fail on it
		}
		return out, &diag.StepError{Token: c.token, Name: c.name, Step: "resolve reference to " + string(out.URN), Err: err}
	}
	out.ID, out.Provider, out.Known = res.ID, res.Provider, true
	out.State = dependingOn(property.New(res.State), ref.URN).AsMap()
	return out, nil
}
