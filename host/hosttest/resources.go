package hosttest

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/rpc"
)

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
	req, err := rpc.ToCreateRequest(custom.CreateRequest{ResourceInfo: info(u), Inputs: checked}, h.Monitor.cfg.dryRun)
	if err != nil {
		return Resource{}, err
	}
	resp, err := server.Create(ctx, req)
	if err != nil {
		return Resource{}, rpc.FromStatus(err)
	}
	created, err := rpc.FromCreateResponse(resp)
	return Resource{URN: u, ID: created.ID, Inputs: checked, Outputs: created.Outputs}, err
}

// info names the resource u.
func info(u urn.URN) custom.ResourceInfo {
	return custom.ResourceInfo{URN: u, Name: u.Name(), Type: string(u.Type())}
}

// check is the engine's Check; failures come back as a *diag.InputError.
func check(ctx context.Context, server pulumirpc.ResourceProviderServer, u urn.URN, olds, news property.Map) (property.Map, error) {
	req, err := rpc.ToCheckRequest(custom.CheckRequest{ResourceInfo: info(u), OldInputs: olds, Inputs: news})
	if err != nil {
		return property.Map{}, err
	}
	resp, err := server.Check(ctx, req)
	if err != nil {
		return property.Map{}, rpc.FromStatus(err)
	}
	checked, err := rpc.FromCheckResponse(resp)
	if err == nil && len(checked.Failures) > 0 {
		return property.Map{}, &diag.InputError{Message: fmt.Sprintf("%s: check failed", u), Failures: checked.Failures}
	}
	return checked.Inputs, err
}

// Read refreshes a resource. A resource that is gone comes back with an
// empty ID.
func (h *Harness) Read(ctx context.Context, r Resource) (Resource, error) {
	server, err := h.serverFor(r.Provider)
	if err != nil {
		return Resource{}, err
	}
	req, err := rpc.ToReadRequest(custom.ReadRequest{ResourceInfo: info(r.URN), ID: r.ID, Inputs: r.Inputs, Outputs: r.Outputs})
	if err != nil {
		return Resource{}, err
	}
	resp, err := server.Read(ctx, req)
	if err != nil {
		return Resource{}, rpc.FromStatus(err)
	}
	read, err := rpc.FromReadResponse(resp)
	return Resource{URN: r.URN, ID: read.ID, Inputs: read.Inputs, Outputs: read.Outputs, Provider: r.Provider}, err
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
	wreq, err := rpc.ToDiffRequest(custom.DiffRequest{ResourceInfo: info(r.URN), ID: r.ID, OldInputs: r.Inputs, OldOutputs: r.Outputs, Inputs: news})
	if err != nil {
		return custom.DiffResponse{}, err
	}
	resp, err := server.Diff(ctx, wreq)
	if err != nil {
		return custom.DiffResponse{}, rpc.FromStatus(err)
	}
	return rpc.FromDiffResponse(resp), nil
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
	wreq, err := rpc.ToUpdateRequest(custom.UpdateRequest{ResourceInfo: info(r.URN), ID: r.ID, OldInputs: r.Inputs, OldOutputs: r.Outputs, Inputs: news}, h.Monitor.cfg.dryRun)
	if err != nil {
		return Resource{}, err
	}
	resp, err := server.Update(ctx, wreq)
	if err != nil {
		return Resource{}, rpc.FromStatus(err)
	}
	updated, err := rpc.FromUpdateResponse(resp)
	return Resource{URN: r.URN, ID: r.ID, Inputs: news, Outputs: updated.Outputs, Provider: r.Provider}, err
}

// Delete deletes a resource.
func (h *Harness) Delete(ctx context.Context, r Resource) error {
	server, err := h.serverFor(r.Provider)
	if err != nil {
		return err
	}
	req, err := rpc.ToDeleteRequest(custom.DeleteRequest{ResourceInfo: info(r.URN), ID: r.ID, Inputs: r.Inputs, Outputs: r.Outputs})
	if err != nil {
		return err
	}
	_, err = server.Delete(ctx, req)
	return rpc.FromStatus(err)
}
