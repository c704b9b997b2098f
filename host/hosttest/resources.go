package hosttest

import (
	"context"
	"fmt"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/internal/wire"
)

// ownResources is the register hook of WithOwnResources.
func (h *Harness) ownResources(next func(Registration) (resource.ID, property.Map, error)) func(Registration) (resource.ID, property.Map, error) {
	return func(r Registration) (resource.ID, property.Map, error) {
		if !r.Custom || tokens.Type(r.Type).Package().String() != h.p.Name() {
			if next != nil {
				return next(r)
			}
			return defaultRegister(r)
		}
		server, err := h.serverFor(r.Provider)
		if err != nil {
			return "", property.Map{}, err
		}
		res, err := h.create(context.Background(), server, r.URN, r.Inputs)
		return res.ID, res.Outputs, err
	}
}

// Resource is one of the provider's own custom resources as the engine
// records it: what Create, Read and Update return, and what Read, Diff,
// Update and Delete take.
type Resource struct {
	URN     urn.URN
	ID      resource.ID
	Inputs  property.Map // as Check returned them
	Outputs property.Map
	// Provider serves the resource: one from RegisterProvider, or the
	// default if zero.
	Provider providers.Reference
}

// CreateRequest creates one of the provider's own custom resources, as a
// program's `new` does (a child of the stack).
type CreateRequest struct {
	Type, Name string
	Inputs     property.Map
	Provider   providers.Reference
}

// Create checks and creates a resource, with preview set in a preview.
// A check failure comes back as a *diag.InputError naming the properties.
func (h *Harness) Create(ctx context.Context, req CreateRequest) (Resource, error) {
	server, err := h.serverFor(req.Provider)
	if err != nil {
		return Resource{}, err
	}
	u, err := h.Monitor.urnFor("", req.Type, req.Name)
	if err != nil {
		return Resource{}, err
	}
	res, err := h.create(ctx, server, u, req.Inputs)
	res.Provider = req.Provider
	return res, err
}

// create is the engine's Check and Create of a new resource.
func (h *Harness) create(ctx context.Context, server pulumirpc.ResourceProviderServer, u urn.URN, inputs property.Map) (Resource, error) {
	checked, err := check(ctx, server, u, property.Map{}, inputs)
	if err != nil {
		return Resource{}, err
	}
	props, err := marshal(checked)
	if err != nil {
		return Resource{}, err
	}
	created, err := server.Create(ctx, &pulumirpc.CreateRequest{
		Urn: string(u), Name: u.Name(), Type: string(u.Type()), Properties: props, Preview: h.Monitor.cfg.dryRun,
	})
	if err != nil {
		return Resource{}, inputError(err)
	}
	outputs, err := unmarshalCRUD(created.GetProperties())
	return Resource{URN: u, ID: resource.ID(created.GetId()), Inputs: checked, Outputs: outputs}, err
}

// check is the engine's Check; failures come back as a *diag.InputError.
func check(ctx context.Context, server pulumirpc.ResourceProviderServer, u urn.URN, olds, news property.Map) (property.Map, error) {
	wireOlds, err := marshal(olds)
	if err != nil {
		return property.Map{}, err
	}
	wireNews, err := marshal(news)
	if err != nil {
		return property.Map{}, err
	}
	checked, err := server.Check(ctx, &pulumirpc.CheckRequest{
		Urn: string(u), Name: u.Name(), Type: string(u.Type()), Olds: wireOlds, News: wireNews,
	})
	if err != nil {
		return property.Map{}, inputError(err)
	}
	if fs := checked.GetFailures(); len(fs) > 0 {
		return property.Map{}, &diag.InputError{Message: fmt.Sprintf("%s: check failed", u), Failures: failures(fs)}
	}
	return unmarshalCRUD(checked.GetInputs())
}

// Read refreshes a resource. A resource that is gone comes back with an
// empty ID.
func (h *Harness) Read(ctx context.Context, r Resource) (Resource, error) {
	server, err := h.serverFor(r.Provider)
	if err != nil {
		return Resource{}, err
	}
	inputs, err := marshal(r.Inputs)
	if err != nil {
		return Resource{}, err
	}
	state, err := marshal(r.Outputs)
	if err != nil {
		return Resource{}, err
	}
	resp, err := server.Read(ctx, &pulumirpc.ReadRequest{
		Urn: string(r.URN), Name: r.URN.Name(), Type: string(r.URN.Type()), Id: string(r.ID), Inputs: inputs, Properties: state,
	})
	if err != nil {
		return Resource{}, inputError(err)
	}
	out := Resource{URN: r.URN, ID: resource.ID(resp.GetId()), Provider: r.Provider}
	if out.Inputs, err = unmarshalCRUD(resp.GetInputs()); err != nil {
		return Resource{}, err
	}
	out.Outputs, err = unmarshalCRUD(resp.GetProperties())
	return out, err
}

// UpdateRequest is a resource and its new inputs, for Diff and Update.
type UpdateRequest struct {
	Resource Resource
	Inputs   property.Map
}

// Diff checks the new inputs and says what would change: Replaces non-empty
// means the engine would replace the resource rather than update it.
func (h *Harness) Diff(ctx context.Context, req UpdateRequest) (custom.DiffResponse, error) {
	server, err := h.serverFor(req.Resource.Provider)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	r := req.Resource
	news, err := check(ctx, server, r.URN, r.Inputs, req.Inputs)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	olds, oldInputs, wireNews, err := marshal3(r.Outputs, r.Inputs, news)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	resp, err := server.Diff(ctx, &pulumirpc.DiffRequest{
		Urn: string(r.URN), Name: r.URN.Name(), Type: string(r.URN.Type()), Id: string(r.ID),
		Olds: olds, OldInputs: oldInputs, News: wireNews,
	})
	if err != nil {
		return custom.DiffResponse{}, inputError(err)
	}
	out := custom.DiffResponse{
		HasChanges: resp.GetChanges() == pulumirpc.DiffResponse_DIFF_SOME, Changes: map[string]custom.DiffKind{},
		Replaces: resp.GetReplaces(), DeleteBeforeReplace: resp.GetDeleteBeforeReplace(),
	}
	for path, d := range resp.GetDetailedDiff() {
		out.Changes[path] = custom.DiffKind(d.GetKind())
	}
	return out, nil
}

// Update checks the new inputs and updates the resource in place (with
// preview set in a preview). Call Diff first to see whether the engine
// would update it at all.
func (h *Harness) Update(ctx context.Context, req UpdateRequest) (Resource, error) {
	server, err := h.serverFor(req.Resource.Provider)
	if err != nil {
		return Resource{}, err
	}
	r := req.Resource
	news, err := check(ctx, server, r.URN, r.Inputs, req.Inputs)
	if err != nil {
		return Resource{}, err
	}
	olds, oldInputs, wireNews, err := marshal3(r.Outputs, r.Inputs, news)
	if err != nil {
		return Resource{}, err
	}
	resp, err := server.Update(ctx, &pulumirpc.UpdateRequest{
		Urn: string(r.URN), Name: r.URN.Name(), Type: string(r.URN.Type()), Id: string(r.ID),
		Olds: olds, OldInputs: oldInputs, News: wireNews, Preview: h.Monitor.cfg.dryRun,
	})
	if err != nil {
		return Resource{}, inputError(err)
	}
	outputs, err := unmarshalCRUD(resp.GetProperties())
	return Resource{URN: r.URN, ID: r.ID, Inputs: news, Outputs: outputs, Provider: r.Provider}, err
}

// Delete deletes a resource.
func (h *Harness) Delete(ctx context.Context, r Resource) error {
	server, err := h.serverFor(r.Provider)
	if err != nil {
		return err
	}
	state, inputs, _, err := marshal3(r.Outputs, r.Inputs, property.Map{})
	if err != nil {
		return err
	}
	_, err = server.Delete(ctx, &pulumirpc.DeleteRequest{
		Urn: string(r.URN), Name: r.URN.Name(), Type: string(r.URN.Type()), Id: string(r.ID),
		Properties: state, OldInputs: inputs,
	})
	return inputError(err)
}

// marshal writes values for CRUD requests: secrets and unknowns kept,
// resource references as the engine sends them to a provider.
func marshal(m property.Map) (*structpb.Struct, error) {
	return wire.MarshalMap(m, wire.MarshalOptions{Secrets: true, Resources: true})
}

func marshal3(a, b, c property.Map) (x, y, z *structpb.Struct, err error) {
	if x, err = marshal(a); err != nil {
		return
	}
	if y, err = marshal(b); err != nil {
		return
	}
	z, err = marshal(c)
	return
}

func unmarshalCRUD(s *structpb.Struct) (property.Map, error) {
	return wire.UnmarshalMap(s, wire.UnmarshalOptions{Resources: true})
}
