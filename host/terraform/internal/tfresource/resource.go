// Package tfresource serves one resource type of a Terraform provider as
// a custom resource: a [Resource] implements custom.Resource and its
// Check, Diff, Read, Update and Delete with the Terraform plugin
// protocol's calls, as Terraform makes them.
//
//   - Check: ValidateResourceConfig, then, for a create, PlanResourceChange
//     from a null prior state; error diagnostics are check failures.
//   - Diff: PlanResourceChange from the recorded state to the state
//     Terraform proposes (the new inputs, the prior state's value of each
//     computed attribute they leave null); RequiresReplace replaces.
//   - Create, Update: PlanResourceChange, then ApplyResourceChange of the
//     planned state. Delete: ApplyResourceChange to a null state.
//   - Read: ReadResource; an import (an ID alone) is ImportResourceState
//     first.
//
// The resource's ID is the state's id attribute, which is not an output;
// a schema without one (protocol 6 allows it) gets a random ID on create
// and the import ID on import, which refreshes and updates keep.
// The schema version a state was recorded with and the provider's private
// state are the secret output [StateKey]; every recorded state passes
// UpgradeResourceState before use. A replacement is Pulumi's default,
// create before delete. Warnings are logged with host.Logger; errors name
// the type, the step and each diagnostic's property path.
package tfresource

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/terraform/internal/tfschema"
	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
)

// ErrUnknownConfig says the provider's configuration is not known yet, in
// a preview: Check then checks only what Terraform itself checks, and Diff
// compares the inputs key by key, as no provider can validate or plan
// before it is configured. The update that follows, with the configuration
// known, plans for real.
var ErrUnknownConfig = errors.New("the provider's configuration is not known yet")

// ServerFunc returns the configured provider serving a request's
// resource: the provider instance of info.Config, or ErrUnknownConfig.
type ServerFunc func(ctx context.Context, info custom.ResourceInfo) (tfwire.Server, error)

// Resource is one Terraform resource type as a custom resource.
type Resource struct {
	typeName string
	schema   *tfprotov6.Schema
	server   ServerFunc
	// Provider names the provider in errors; "the provider" when empty.
	Provider string
	props    map[string]string // property name of each top-level attribute and block
	// writeOnly are the properties of write-only attributes, which the
	// recorded inputs keep secret (Terraform stores them nowhere).
	writeOnly map[string]bool
	// hasID: the schema has the id attribute, the resource's ID. Without
	// it (protocol 6 allows that) the ID is the backend's: random on
	// create, the import ID on import, kept by refreshes and updates.
	hasID bool
	// stateKeyIsProp: an attribute or block has StateKey's property name.
	stateKeyIsProp bool
	// timeouts are the operations of the schema's timeouts block or
	// attribute (tfschema.Timeouts), which each step fills from its
	// customTimeouts; it is no input or output.
	timeouts []string
	conv     *tfvalue.Block // the schema's conversions, worked out once
	enc      encoder
}

var _ interface {
	custom.Resource
	custom.ResourceWithCheck
	custom.ResourceWithDiff
	custom.ResourceWithRead
	custom.ResourceWithUpdate
	custom.ResourceWithDelete
} = (*Resource)(nil)

// New returns the resource type typeName, of the given schema (from the
// provider's GetProviderSchema), served by server.
func New(typeName string, schema *tfprotov6.Schema, server ServerFunc) (*Resource, error) {
	if schema == nil || schema.Block == nil || !whole(schema.Block) {
		return nil, fmt.Errorf("%s: no schema, or one with a nil attribute or block", typeName)
	}
	conv := tfvalue.NewBlock(schema.Block)
	props := conv.PropertyNames()
	writeOnly := map[string]bool{}
	for _, a := range schema.Block.Attributes {
		if a.WriteOnly {
			writeOnly[props[a.Name]] = true
		}
	}
	enc, err := newEncoder(conv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", typeName, err)
	}
	hasID := slices.ContainsFunc(schema.Block.Attributes, func(a *tfprotov6.SchemaAttribute) bool { return a.Name == "id" })
	stateKeyIsProp := false
	for _, prop := range props {
		stateKeyIsProp = stateKeyIsProp || prop == StateKey
	}
	return &Resource{typeName: typeName, schema: schema, server: server, props: props, writeOnly: writeOnly, hasID: hasID,
		stateKeyIsProp: stateKeyIsProp, timeouts: tfschema.Timeouts(schema.Block), conv: conv, enc: enc}, nil
}

// whole reports whether a block has no nil attribute, nested type or block.
func whole(b *tfprotov6.SchemaBlock) bool {
	for _, a := range b.Attributes {
		if a == nil || a.NestedType != nil && !whole(&tfprotov6.SchemaBlock{Attributes: a.NestedType.Attributes}) {
			return false
		}
	}
	for _, nb := range b.BlockTypes {
		if nb == nil || nb.Block == nil || !whole(nb.Block) {
			return false
		}
	}
	return true
}

// Check validates the inputs as Terraform validates a configuration.
func (r *Resource) Check(ctx context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	cfg, err := r.conv.ToTerraform(req.Inputs)
	if failures := r.checkInputs(req.Inputs, err == nil); len(failures) > 0 {
		return custom.CheckResponse{Inputs: req.Inputs, Failures: failures}, nil
	}
	if err != nil {
		return custom.CheckResponse{Inputs: req.Inputs, Failures: []diag.CheckFailure{{Reason: err.Error()}}}, nil
	}
	var failures []diag.CheckFailure
	missing(r.schema.Block, cfg, tftypes.NewAttributePath(), func(p *tftypes.AttributePath, reason string) {
		failures = append(failures, diag.CheckFailure{Property: r.path(p), Reason: reason})
	})
	if len(failures) > 0 {
		return custom.CheckResponse{Inputs: req.Inputs, Failures: failures}, nil
	}
	srv, err := r.connect(ctx, req.ResourceInfo)
	if errors.Is(err, ErrUnknownConfig) {
		// A preview before the provider's configuration is known: what
		// Terraform itself checks, above, is all that can be checked.
		return r.checked(req.Inputs, cfg, nil)
	}
	if err != nil {
		return custom.CheckResponse{}, r.errorf("check", err)
	}
	dcfg, err := r.dynamic(cfg)
	if err != nil {
		return custom.CheckResponse{}, r.errorf("check", err)
	}
	vr, err := answer(srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: r.typeName, Config: dcfg,
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}}))
	if err != nil {
		return custom.CheckResponse{}, r.errorf("validate", err)
	}
	failures = r.failures(ctx, vr.Diagnostics)
	if len(failures) == 0 && req.OldInputs.Len() == 0 {
		// Planning a create surfaces in a preview the errors a provider
		// finds only then; an update's Diff plans it.
		proposed, err := proposedNew(r.schema.Block, r.null(), cfg)
		if err != nil {
			return custom.CheckResponse{}, r.errorf("check", err)
		}
		pr, err := r.planResourceChange(ctx, srv, r.null(), proposed, cfg, dcfg, nil)
		if err != nil {
			return custom.CheckResponse{}, r.errorf("plan", err)
		}
		failures = r.failures(ctx, pr.Diagnostics)
	}
	return r.checked(req.Inputs, cfg, failures)
}

// checked is Check's answer: the inputs as converted, normalized.
func (r *Resource) checked(inputs property.Map, cfg tftypes.Value, failures []diag.CheckFailure) (custom.CheckResponse, error) {
	converted, err := r.conv.FromTerraform(cfg)
	if err != nil {
		return custom.CheckResponse{}, r.errorf("check", err)
	}
	return custom.CheckResponse{Inputs: r.normalized(inputs, converted), Failures: failures}, nil
}

// Diff plans the change from the recorded state to the inputs.
func (r *Resource) Diff(ctx context.Context, req custom.DiffRequest) (custom.DiffResponse, error) {
	srv, err := r.connect(ctx, req.ResourceInfo)
	if errors.Is(err, ErrUnknownConfig) {
		return inputDiff(req.OldInputs, req.Inputs), nil
	}
	if err != nil {
		return custom.DiffResponse{}, r.errorf("diff", err)
	}
	prior, private, err := r.prior(ctx, srv, req.ID, req.OldOutputs)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	p, err := r.plan(ctx, srv, prior, private, req.Inputs, timeout{})
	if err != nil {
		return custom.DiffResponse{}, err
	}
	return r.diff(prior, p.state, p.replace)
}

// Create plans and applies a new resource.
func (r *Resource) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	srv, err := r.connect(ctx, req.ResourceInfo)
	if err != nil {
		return custom.CreateResponse{}, r.errorf("create", err)
	}
	p, err := r.plan(ctx, srv, r.null(), nil, req.Inputs, timeout{"create", req.Timeout})
	if err != nil {
		return custom.CreateResponse{}, err
	}
	id, outputs, err := r.apply(ctx, srv, r.null(), p, "")
	return custom.CreateResponse{ID: id, Outputs: outputs}, err
}

// Update plans and applies a change in place.
func (r *Resource) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	srv, err := r.connect(ctx, req.ResourceInfo)
	if err != nil {
		return custom.UpdateResponse{}, r.errorf("update", err)
	}
	prior, private, err := r.prior(ctx, srv, req.ID, req.OldOutputs)
	if err != nil {
		return custom.UpdateResponse{}, err
	}
	p, err := r.plan(ctx, srv, prior, private, req.Inputs, timeout{"update", req.Timeout})
	if err != nil {
		return custom.UpdateResponse{}, err
	}
	if len(p.replace) > 0 {
		return custom.UpdateResponse{}, fmt.Errorf("%s: update: a change of %s replaces the resource; it cannot be updated in place",
			r.typeName, strings.Join(r.replaced(p.replace), ", "))
	}
	_, outputs, err := r.apply(ctx, srv, prior, p, req.ID)
	return custom.UpdateResponse{Outputs: outputs}, err
}

// Delete applies a null planned state.
func (r *Resource) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	srv, err := r.connect(ctx, req.ResourceInfo)
	if err != nil {
		return custom.DeleteResponse{}, r.errorf("delete", err)
	}
	prior, wire, private, err := r.upgraded(ctx, srv, req.ID, req.Outputs)
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	if req.Timeout > 0 && slices.Contains(r.timeouts, "delete") {
		if prior, err = r.withTimeout(prior, timeout{"delete", req.Timeout}); err != nil {
			return custom.DeleteResponse{}, r.errorf("delete", err)
		}
		wire = nil // the provider's encoding is of the state without the timeout
	}
	dprior, err := r.encode(prior, wire)
	if err != nil {
		return custom.DeleteResponse{}, r.errorf("delete", err)
	}
	dnull := r.enc.null
	resp, err := applyChange(ctx, srv, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: r.typeName, PriorState: dprior, PlannedState: dnull, Config: dnull, PlannedPrivate: private})
	if err != nil {
		return custom.DeleteResponse{}, r.errorf("delete", err)
	}
	return custom.DeleteResponse{}, r.diags(ctx, "delete", resp.Diagnostics)
}

// Read refreshes the recorded state, or imports the resource of ID when
// the request has nothing else. A resource gone has an empty ID.
func (r *Resource) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	srv, err := r.connect(ctx, req.ResourceInfo)
	if err != nil {
		return custom.ReadResponse{}, r.errorf("read", err)
	}
	importing := req.Inputs.Len() == 0 && req.Outputs.Len() == 0
	var current tftypes.Value
	var wire *tfprotov6.DynamicValue
	var private []byte
	if importing {
		current, private, err = r.importState(ctx, srv, req.ID)
	} else {
		current, wire, private, err = r.upgraded(ctx, srv, req.ID, req.Outputs)
	}
	if err != nil || current.IsNull() {
		return custom.ReadResponse{}, err
	}
	dcur, err := r.encode(current, wire)
	if err != nil {
		return custom.ReadResponse{}, r.errorf("read", err)
	}
	resp, err := answer(srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: r.typeName, CurrentState: dcur, Private: private}))
	if err != nil {
		return custom.ReadResponse{}, r.errorf("read", err)
	}
	if err := r.diags(ctx, "read", resp.Diagnostics); err != nil {
		return custom.ReadResponse{}, err
	}
	state, err := r.decode(resp.NewState)
	if err != nil {
		return custom.ReadResponse{}, r.errorf("read", err)
	}
	if state.IsNull() {
		return custom.ReadResponse{}, nil // gone
	}
	id, outputs, err := r.outputs(state, resp.Private, req.ID)
	if err != nil || id == "" {
		return custom.ReadResponse{}, err // no id: gone, as SDKv2's d.SetId("")
	}
	return custom.ReadResponse{ID: id, Inputs: r.inputsOf(outputs, importing, req.Inputs), Outputs: outputs}, nil
}

// importState is the state ImportResourceState imports for id: null when
// the provider found nothing.
func (r *Resource) importState(ctx context.Context, srv tfwire.Server, id resource.ID) (tftypes.Value, []byte, error) {
	resp, err := answer(srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: r.typeName, ID: string(id)}))
	if err != nil {
		return tftypes.Value{}, nil, r.errorf("import", err)
	}
	if err := r.diags(ctx, "import", resp.Diagnostics); err != nil {
		return tftypes.Value{}, nil, err
	}
	var found []*tfprotov6.ImportedResource
	for _, ir := range resp.ImportedResources {
		if ir != nil && ir.TypeName == r.typeName {
			found = append(found, ir)
		}
	}
	switch len(found) {
	case 0:
		return r.null(), nil, nil
	case 1:
	default:
		return tftypes.Value{}, nil, fmt.Errorf("%s: import of %q: the provider imported %d resources of this type, not one", r.typeName, id, len(found))
	}
	state, err := r.decode(found[0].State)
	if err != nil {
		return tftypes.Value{}, nil, r.errorf("import", err)
	}
	return state, found[0].Private, nil
}

// inputsOf are the inputs that would produce outputs: the attributes a
// configuration can set; optional and computed ones only on import or
// when they were inputs already; write-only ones, never in a state, as
// they were.
func (r *Resource) inputsOf(outputs property.Map, importing bool, old property.Map) property.Map {
	keep := map[string]bool{}
	for _, a := range r.schema.Block.Attributes {
		name := r.props[a.Name]
		switch {
		case a.WriteOnly:
			if v, had := old.GetOk(name); had {
				outputs = outputs.Set(name, v)
				keep[name] = true
			}
		case a.Name == "id":
		case a.Required || (a.Optional && !a.Computed):
			keep[name] = true
		case a.Optional:
			_, had := old.GetOk(name)
			keep[name] = importing || had
		}
	}
	for _, b := range r.schema.Block.BlockTypes {
		keep[r.props[b.TypeName]] = true
	}
	inputs := map[string]property.Value{}
	for k, v := range outputs.All {
		if keep[k] {
			inputs[k] = v
		}
	}
	return property.NewMap(inputs)
}

// planned is a PlanResourceChange's answer.
type planned struct {
	state, config tftypes.Value
	private       []byte
	replace       []*tftypes.AttributePath
	// the encodings of state, as the provider answered it, and of config
	wireState, wireConfig *tfprotov6.DynamicValue
}

// plan plans the change from prior to inputs, the step's timeout in the
// configuration's timeouts.
func (r *Resource) plan(ctx context.Context, srv tfwire.Server, prior tftypes.Value, private []byte, inputs property.Map, to timeout) (planned, error) {
	cfg, err := r.conv.ToTerraform(inputs)
	if err != nil {
		return planned{}, r.errorf("inputs", err)
	}
	if cfg, err = r.withTimeout(cfg, to); err != nil {
		return planned{}, r.errorf("inputs", err)
	}
	proposed, err := proposedNew(r.schema.Block, prior, cfg)
	if err != nil {
		return planned{}, r.errorf("plan", err)
	}
	dcfg, err := r.dynamic(cfg)
	if err != nil {
		return planned{}, r.errorf("plan", err)
	}
	resp, err := r.planResourceChange(ctx, srv, prior, proposed, cfg, dcfg, private)
	if err != nil {
		return planned{}, r.errorf("plan", err)
	}
	if err := r.diags(ctx, "plan", resp.Diagnostics); err != nil {
		return planned{}, err
	}
	state, err := r.decode(resp.PlannedState)
	if err != nil {
		return planned{}, r.errorf("plan", err)
	}
	return planned{state: state, config: cfg, private: resp.PlannedPrivate, replace: changedPaths(prior, state, resp.RequiresReplace),
		wireState: resp.PlannedState, wireConfig: dcfg}, nil
}

// changedPaths are the paths whose value the plan changes (or leaves
// unknown): Terraform replaces a resource only for those of a provider's
// RequiresReplace, and never on a create.
func changedPaths(prior, plan tftypes.Value, paths []*tftypes.AttributePath) []*tftypes.AttributePath {
	if prior.IsNull() {
		return nil
	}
	var out []*tftypes.AttributePath
	for _, p := range paths {
		if p == nil {
			continue
		}
		old, _, oldErr := tftypes.WalkAttributePath(prior, p)
		now, _, nowErr := tftypes.WalkAttributePath(plan, p)
		if oldErr != nil && nowErr != nil {
			continue // in neither
		}
		o, _ := old.(tftypes.Value)
		n, _ := now.(tftypes.Value)
		if oldErr != nil || nowErr != nil || !n.IsFullyKnown() || !o.Equal(n) {
			out = append(out, p)
		}
	}
	return out
}

// planResourceChange plans; dcfg is cfg's encoding.
func (r *Resource) planResourceChange(ctx context.Context, srv tfwire.Server, prior, proposed, cfg tftypes.Value, dcfg *tfprotov6.DynamicValue, private []byte) (*tfprotov6.PlanResourceChangeResponse, error) {
	dprior, err := r.dynamic(prior)
	if err != nil {
		return nil, err
	}
	dproposed := dcfg // with no prior state, proposedNew proposes cfg itself
	if !prior.IsNull() || !cfg.IsKnown() {
		if dproposed, err = r.dynamic(proposed); err != nil {
			return nil, err
		}
	}
	return answer(srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: r.typeName, PriorState: dprior, ProposedNewState: dproposed, Config: dcfg, PriorPrivate: private}))
}

// apply applies a plan. A failure that leaves a state is a
// custom.PartialError holding it. id is the resource's ID when its schema
// has no id attribute: a create's is made here.
func (r *Resource) apply(ctx context.Context, srv tfwire.Server, prior tftypes.Value, p planned, id resource.ID) (resource.ID, property.Map, error) {
	var dv [3]*tfprotov6.DynamicValue
	for i, v := range []tftypes.Value{prior, p.state, p.config} {
		d, err := r.encode(v, []*tfprotov6.DynamicValue{nil, p.wireState, p.wireConfig}[i])
		if err != nil {
			return "", property.Map{}, r.errorf("apply", err)
		}
		dv[i] = d
	}
	resp, err := applyChange(ctx, srv, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: r.typeName, PriorState: dv[0], PlannedState: dv[1], Config: dv[2], PlannedPrivate: p.private})
	if err != nil {
		return "", property.Map{}, r.errorf("apply", err)
	}
	failed := r.diags(ctx, "apply", resp.Diagnostics)
	state, err := r.decode(resp.NewState)
	if err != nil {
		return "", property.Map{}, errors.Join(failed, r.errorf("apply", err))
	}
	if state.IsNull() {
		if failed == nil {
			failed = fmt.Errorf("%s: apply: the provider returned no state", r.typeName)
		}
		return "", property.Map{}, failed
	}
	if id == "" && !r.hasID {
		id = newID()
	}
	id, outputs, err := r.outputs(state, resp.Private, id)
	switch {
	case err != nil:
		return "", property.Map{}, errors.Join(failed, err)
	case id == "":
		return "", property.Map{}, errors.Join(failed, fmt.Errorf("%s: apply: the provider returned a state without an id (a string attribute id)", r.typeName))
	case failed != nil:
		return id, outputs, &custom.PartialError{ID: id, Outputs: outputs, Err: failed}
	}
	return id, outputs, nil
}

// prior is the recorded state of resource id, upgraded to the current
// schema version, and its private state.
func (r *Resource) prior(ctx context.Context, srv tfwire.Server, id resource.ID, outputs property.Map) (tftypes.Value, []byte, error) {
	v, _, private, err := r.upgraded(ctx, srv, id, outputs)
	return v, private, err
}

// upgraded is prior with the encoding the provider answered.
func (r *Resource) upgraded(ctx context.Context, srv tfwire.Server, id resource.ID, outputs property.Map) (tftypes.Value, *tfprotov6.DynamicValue, []byte, error) {
	m, err := metaOf(outputs, r.schema.Version)
	if err != nil {
		return tftypes.Value{}, nil, nil, r.errorf("state", err)
	}
	if m.version > r.schema.Version {
		return tftypes.Value{}, nil, nil, fmt.Errorf("%s: the state was recorded with schema version %d, newer than the provider's %d",
			r.typeName, m.version, r.schema.Version)
	}
	state := outputs
	if m.version != r.schema.Version || r.stateKeyIsProp {
		// Where the version is the provider's, the state is written by the
		// schema's properties alone, StateKey not one of them: no copy.
		state = state.Delete(StateKey)
	}
	if r.hasID {
		state = state.Set("id", property.New(string(id)))
	}
	raw, err := rawState(r.schema.Block, r.conv, r.schema.Version, m.version, state)
	if err != nil {
		return tftypes.Value{}, nil, nil, r.errorf("state", err)
	}
	resp, err := answer(srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: r.typeName, Version: m.version, RawState: &tfprotov6.RawState{JSON: raw}}))
	if err != nil {
		return tftypes.Value{}, nil, nil, r.errorf("upgrade state", err)
	}
	if err := r.diags(ctx, "upgrade state", resp.Diagnostics); err != nil {
		return tftypes.Value{}, nil, nil, err
	}
	v, err := r.decode(resp.UpgradedState)
	if err != nil {
		return tftypes.Value{}, nil, nil, r.errorf("upgrade state", err)
	}
	if v.IsNull() {
		return tftypes.Value{}, nil, nil, fmt.Errorf("%s: upgrade state: the provider returned no state", r.typeName)
	}
	return v, resp.UpgradedState, m.private, nil
}

// newID is the ID of a new resource whose schema has no id attribute:
// random, as Terraform keeps no ID for it.
func newID() resource.ID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return resource.ID(hex.EncodeToString(b[:]))
}

// outputs are a state's outputs and its id, StateKey added; the id is
// noID when the schema has no id attribute.
func (r *Resource) outputs(state tftypes.Value, private []byte, noID resource.ID) (resource.ID, property.Map, error) {
	m, err := r.conv.FromTerraformFields(state)
	if err != nil {
		return "", property.Map{}, r.errorf("state", err)
	}
	id := string(noID)
	if r.hasID {
		id = ""
		if v := m["id"]; v.IsString() {
			id = v.AsString()
		}
	}
	delete(m, "id")
	if r.timeouts != nil {
		delete(m, r.props[tfschema.TimeoutsName])
	}
	m[StateKey] = meta{version: r.schema.Version, private: private}.value()
	return resource.ID(id), property.NewMap(m), nil
}

// diff compares the prior and planned states by top-level property: those
// a configuration sets, or, when none of them changed, the computed ones.
func (r *Resource) diff(prior, plan tftypes.Value, replace []*tftypes.AttributePath) (custom.DiffResponse, error) {
	if plan.Equal(prior) && len(replace) == 0 {
		return custom.DiffResponse{}, nil
	}
	pm, qm, err := objects(prior, plan)
	if err != nil {
		return custom.DiffResponse{}, r.errorf("diff", err)
	}
	replaces := r.replaced(replace)
	resp := custom.DiffResponse{HasChanges: true, Changes: map[string]custom.DiffKind{}, Replaces: replaces}
	var computed map[string]custom.DiffKind
	add := func(name string, input bool) {
		p, q := attr(pm, qm, name)
		prop := r.props[name]
		rep := slices.Contains(replaces, prop)
		if p.Equal(q) && !rep || name == "id" || r.timeouts != nil && name == tfschema.TimeoutsName {
			return
		}
		k := changeKind(p, q, rep)
		if input {
			resp.Changes[prop] = k
		} else {
			if computed == nil {
				computed = map[string]custom.DiffKind{}
			}
			computed[prop] = k
		}
	}
	for _, a := range r.schema.Block.Attributes {
		add(a.Name, a.Required || a.Optional)
	}
	for _, b := range r.schema.Block.BlockTypes {
		add(b.TypeName, true)
	}
	if len(resp.Changes) == 0 {
		resp.Changes = computed
	}
	return resp, nil
}

// replaced are the top-level properties of RequiresReplace paths.
func (r *Resource) replaced(paths []*tftypes.AttributePath) []string {
	var out []string
	for _, p := range paths {
		if p == nil || len(p.Steps()) == 0 {
			continue
		}
		top := tftypes.NewAttributePathWithSteps(p.Steps()[:1])
		if name := r.path(top); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func changeKind(prior, plan tftypes.Value, replace bool) custom.DiffKind {
	k := custom.DiffUpdate
	switch {
	case prior.IsNull():
		k = custom.DiffAdd
	case plan.IsNull():
		k = custom.DiffDelete
	}
	if replace {
		k++ // each kind's Replace variant follows it
	}
	return k
}

// checkInputs reports inputs that are no attribute a configuration sets,
// or whose values do not convert to their attribute's type (none when
// converted says they all did).
func (r *Resource) checkInputs(inputs property.Map, converted bool) []diag.CheckFailure {
	settable := map[string]bool{} // property name -> a configuration sets it
	for _, a := range r.schema.Block.Attributes {
		settable[r.props[a.Name]] = a.Required || a.Optional
	}
	for _, b := range r.schema.Block.BlockTypes {
		settable[r.props[b.TypeName]] = true
	}
	var failures []diag.CheckFailure
	for k, v := range inputs.AllStable {
		set, ok := settable[k]
		switch {
		case !ok:
			failures = append(failures, diag.CheckFailure{Property: k, Reason: fmt.Sprintf("%s has no such attribute", r.typeName)})
		case !set:
			failures = append(failures, diag.CheckFailure{Property: k, Reason: "computed by the provider; it cannot be set"})
		case r.timeouts != nil && k == r.props[tfschema.TimeoutsName]:
			failures = append(failures, diag.CheckFailure{Property: k, Reason: "set by the customTimeouts resource option, not as an input"})
		case !converted: // the error names the path inside k
			if err := r.conv.PropertyError(k, v); err != nil {
				failures = append(failures, diag.CheckFailure{Property: k, Reason: err.Error()})
			}
		}
	}
	return failures
}

// failures are the error diagnostics as check failures; warnings are logged.
func (r *Resource) failures(ctx context.Context, ds []*tfprotov6.Diagnostic) []diag.CheckFailure {
	var out []diag.CheckFailure
	for _, d := range ds {
		if d == nil {
			continue
		}
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			r.warn(ctx, d)
			continue
		}
		out = append(out, diag.CheckFailure{Property: r.path(d.Attribute), Reason: text(d)})
	}
	return out
}

// diags logs the warnings, and returns the errors as one error naming the
// type, the step and each error's attribute.
func (r *Resource) diags(ctx context.Context, step string, ds []*tfprotov6.Diagnostic) error {
	for _, d := range ds {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityWarning {
			r.warn(ctx, d)
		}
	}
	if err := DiagnosticsError(ds, r.schema.Block); err != nil {
		return fmt.Errorf("%s: %s: %w", r.typeName, step, err)
	}
	return nil
}

// DiagnosticsError is every diagnostic of ds but the warnings as one
// error, each named by its property path in block (none when block is
// nil); nil when there are none.
func DiagnosticsError(ds []*tfprotov6.Diagnostic, block *tfprotov6.SchemaBlock) error {
	var errs []string
	for _, d := range ds {
		if d == nil || d.Severity == tfprotov6.DiagnosticSeverityWarning {
			continue
		}
		msg := text(d)
		if p := propertyPath(block, d.Attribute); p != "" {
			msg = p + ": " + msg
		}
		errs = append(errs, msg)
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}

func (r *Resource) warn(ctx context.Context, d *tfprotov6.Diagnostic) {
	args := []any{"type", r.typeName}
	if p := r.path(d.Attribute); p != "" {
		args = append(args, "property", p)
	}
	host.Logger(ctx).Warn(text(d), args...)
}

func text(d *tfprotov6.Diagnostic) string {
	if d.Detail == "" || d.Detail == d.Summary {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}

// path is the property path of an attribute path; "" for none.
func (r *Resource) path(p *tftypes.AttributePath) string { return propertyPath(r.schema.Block, p) }

func propertyPath(block *tfprotov6.SchemaBlock, p *tftypes.AttributePath) string {
	if block == nil || p == nil || len(p.Steps()) == 0 {
		return ""
	}
	return tfvalue.PropertyPath(block, p)
}

func (r *Resource) errorf(step string, err error) error {
	return fmt.Errorf("%s: %s: %w", r.typeName, step, err)
}

func (r *Resource) null() tftypes.Value { return tftypes.NewValue(r.conv.Type(), nil) }

func (r *Resource) dynamic(v tftypes.Value) (*tfprotov6.DynamicValue, error) { return r.enc.encode(v) }

// decode reads a state the provider returned, which must be of the schema.
func (r *Resource) decode(d *tfprotov6.DynamicValue) (tftypes.Value, error) {
	if d == nil {
		return r.null(), nil
	}
	v, err := r.enc.decode(*d)
	if err != nil {
		who := r.Provider
		if who == "" {
			who = "the provider"
		}
		return tftypes.Value{}, fmt.Errorf("%s returned a state not of %s's schema: %w", who, r.typeName, err)
	}
	return v, nil
}

// normalized are the keys of inputs with their converted values: secret
// when they held a secret (converting unwrapped it), null when conversion
// left them out.
func (r *Resource) normalized(inputs, converted property.Map) property.Map {
	out := make(map[string]property.Value, inputs.Len())
	for k, v := range inputs.All {
		c := converted.Get(k)
		if v.HasSecrets() || r.writeOnly[k] {
			c = c.WithSecret(true)
		}
		out[k] = c
	}
	return property.NewMap(out)
}

// connect is the server of a request's provider.
func (r *Resource) connect(ctx context.Context, info custom.ResourceInfo) (tfwire.Server, error) {
	srv, err := r.server(ctx, info)
	if err == nil && srv == nil {
		err = fmt.Errorf("no provider serves it")
	}
	return srv, err
}

// answer is a call's answer, never nil: a server that answered nil, and
// no error, answered nothing.
func answer[T any](resp *T, err error) (*T, error) {
	if resp == nil && err == nil {
		resp = new(T)
	}
	return resp, err
}

// timeout is a step's operation (create, update, delete) and its
// customTimeouts value; none when 0.
type timeout struct {
	op string
	d  time.Duration
}

// withTimeout is the configuration or state v with to's duration in its
// timeouts block or attribute, as a Go duration ("1m30s"), when the schema
// declares the operation and v leaves it null.
func (r *Resource) withTimeout(v tftypes.Value, to timeout) (tftypes.Value, error) {
	if to.d <= 0 || !slices.Contains(r.timeouts, to.op) || v.IsNull() || !v.IsKnown() {
		return v, nil
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return v, err
	}
	attrs = maps.Clone(attrs) // As shares v's own map
	cur, ok := attrs[tfschema.TimeoutsName]
	ot, isObject := cur.Type().(tftypes.Object)
	if !ok || !isObject || !cur.IsKnown() {
		return v, nil
	}
	vals := map[string]tftypes.Value{}
	if !cur.IsNull() {
		if err := cur.As(&vals); err != nil {
			return v, err
		}
		vals = maps.Clone(vals)
	}
	if set, ok := vals[to.op]; ok && !set.IsNull() {
		return v, nil
	}
	for name, t := range ot.AttributeTypes {
		if _, ok := vals[name]; !ok {
			vals[name] = tftypes.NewValue(t, nil)
		}
	}
	vals[to.op] = tftypes.NewValue(tftypes.String, to.d.String())
	attrs[tfschema.TimeoutsName] = tftypes.NewValue(ot, vals)
	return tftypes.NewValue(v.Type(), attrs), nil
}

// withTimeout bounds ctx by d, if any.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// inputDiff compares inputs key by key: a preview's Diff before the
// provider's configuration is known. A change it finds is an update; a
// replacement shows only when the update plans.
func inputDiff(olds, news property.Map) custom.DiffResponse {
	resp := custom.DiffResponse{Changes: map[string]custom.DiffKind{}}
	for k, v := range news.All {
		if o, ok := olds.GetOk(k); !ok || !o.Equals(v) {
			resp.Changes[k] = custom.DiffUpdate
		}
	}
	for k := range olds.All {
		if _, ok := news.GetOk(k); !ok {
			resp.Changes[k] = custom.DiffDelete
		}
	}
	resp.HasChanges = len(resp.Changes) > 0
	return resp
}
