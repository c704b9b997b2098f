package core

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/host/schema"
)

// resource finds the backend for a type token.
func (p *Provider) resource(token string) (custom.Resource, error) {
	r, ok := p.resources[token]
	if !ok {
		return nil, unknownToken(p, "resource type", token, p.resources)
	}
	return r, nil
}

// implemented is r as T, an optional method (custom.ResourceWithUpdate,
// ...), if r has it: a raw backend if it implements T, a typed one if its
// author wrote it.
func implemented[T any](r custom.Resource) (T, bool) {
	m, ok := r.(T)
	if t, typed := r.(interface{ wrote(method any) bool }); ok && typed {
		ok = t.wrote((*T)(nil))
	}
	return m, ok
}

// recordsSomething reports whether every created resource of type token
// records an input or an output: its schema requires one. An empty state
// of such a type is an import's; without a schema it is taken to be one.
func (p *Provider) recordsSomething(token string) bool {
	spec, ok := p.resourceSchema(token)
	return !ok || len(spec.RequiredInputs) > 0 || len(spec.Required) > 0
}

// resourceSchema is the schema of a custom resource, if the package has one.
func (p *Provider) resourceSchema(token string) (schema.Resource, bool) {
	if p.schema == nil {
		return schema.Resource{}, false
	}
	return p.schema.Resource(token)
}

// The CRUD requests of a custom resource: each is given the provider's
// configuration, and its context (enter) the resource's; each answers with
// its errors and failures redacted of the secrets of the request (as
// Failed and printable say), a panic of its backend as an error too. A
// partial create or update keeps its ID and state. What a backend without
// a method gets is decided here: without Check the schema's check, without
// Diff the default diff, without Update a replace for any change, without
// Read the recorded state (and no import), without Delete nothing.

// Check checks the inputs of a resource.
func (p *Provider) Check(ctx context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	req.Config = p.Config()
	ctx = p.enter(ctx, req.URN, req.OldInputs, req.Inputs)
	resp, err := recovering("", "", "check", func() (custom.CheckResponse, error) { return p.check(ctx, req) })
	if err != nil {
		return resp, p.Failed(ctx, err, "", "", req.OldInputs, req.Inputs, req.Config)
	}
	resp.Failures = printable(resp.Failures, req.Inputs, resp.Inputs, req.OldInputs, req.Config)
	return resp, nil
}

// Diff compares a resource's state with new inputs.
func (p *Provider) Diff(ctx context.Context, req custom.DiffRequest) (custom.DiffResponse, error) {
	req.Config = p.Config()
	ctx = p.enter(ctx, req.URN, req.OldInputs, req.OldOutputs, req.Inputs)
	resp, err := recovering("", "", "diff", func() (custom.DiffResponse, error) { return p.diff(ctx, req) })
	if err != nil {
		return resp, p.Failed(ctx, err, "", "", req.OldInputs, req.OldOutputs, req.Inputs, req.Config)
	}
	return resp, nil
}

// Create creates a resource; in a preview it answers without the backend.
func (p *Provider) Create(ctx context.Context, req custom.CreateRequest, preview bool) (custom.CreateResponse, error) {
	req.Config = p.Config()
	ctx = p.enter(ctx, req.URN, req.Inputs)
	resp, err := recovering("", "", "create", func() (custom.CreateResponse, error) { return p.create(ctx, req, preview) })
	if err != nil {
		return resp, p.Failed(ctx, err, "", "", req.Inputs, req.Config)
	}
	return resp, nil
}

// Read reads a resource's live state.
func (p *Provider) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	req.Config = p.Config()
	ctx = p.enter(ctx, req.URN, req.Inputs, req.Outputs)
	resp, err := recovering("", "", "read", func() (custom.ReadResponse, error) { return p.read(ctx, req) })
	if err != nil {
		return resp, p.Failed(ctx, err, "", "", req.Inputs, req.Outputs, req.Config)
	}
	return resp, nil
}

// Update updates a resource in place; in a preview it answers without the
// backend.
func (p *Provider) Update(ctx context.Context, req custom.UpdateRequest, preview bool) (custom.UpdateResponse, error) {
	req.Config = p.Config()
	ctx = p.enter(ctx, req.URN, req.OldInputs, req.OldOutputs, req.Inputs)
	resp, err := recovering("", "", "update", func() (custom.UpdateResponse, error) { return p.update(ctx, req, preview) })
	if err != nil {
		return resp, p.Failed(ctx, err, "", "", req.OldInputs, req.OldOutputs, req.Inputs, req.Config)
	}
	return resp, nil
}

// Delete deletes a resource.
func (p *Provider) Delete(ctx context.Context, req custom.DeleteRequest) error {
	req.Config = p.Config()
	ctx = p.enter(ctx, req.URN, req.Inputs, req.Outputs)
	_, err := recovering("", "", "delete", func() (struct{}, error) { return struct{}{}, p.delete(ctx, req) })
	if err != nil {
		return p.Failed(ctx, err, "", "", req.Inputs, req.Outputs, req.Config)
	}
	return nil
}

func (p *Provider) check(ctx context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	r, err := p.resource(req.Type)
	if err != nil {
		return custom.CheckResponse{}, err
	}
	if rc, ok := implemented[custom.ResourceWithCheck](r); ok {
		return rc.Check(ctx, req)
	}
	return p.schemaCheck(req), nil
}

// schemaCheck is the check of a backend without Check: the schema's
// defaults, then its check.
func (p *Provider) schemaCheck(req custom.CheckRequest) custom.CheckResponse {
	spec, ok := p.resourceSchema(req.Type)
	if !ok {
		return custom.CheckResponse{Inputs: req.Inputs}
	}
	inputs := applyDefaults(spec.InputProperties, req.Inputs)
	return custom.CheckResponse{Inputs: inputs, Failures: p.schema.Check(spec.Inputs(), inputs)}
}

// checkApplied refuses the inputs of a Create or Update that do not fit
// the schema, or hold an unknown (only a preview may), so that no backend
// meets them: the engine checks inputs before it applies them, but a
// client that skips Check need not.
func (p *Provider) checkApplied(token string, inputs property.Map) error {
	var failures []diag.CheckFailure
	if spec, ok := p.resourceSchema(token); ok {
		failures = p.schema.Check(spec.Inputs(), inputs)
	}
	if property.New(inputs).HasComputed() { // unknownPaths sorts every map's keys
		for _, path := range unknownPaths("", property.New(inputs)) {
			failures = append(failures, diag.CheckFailure{Property: path, Reason: "is unknown: only a preview may hold unknown values"})
		}
	}
	if len(failures) == 0 {
		return nil
	}
	return &diag.InputError{Message: "invalid inputs", Failures: failures}
}

// unknownPaths are the property paths of v's unknown values, as a
// CheckFailure names them.
func unknownPaths(path string, v property.Value) []string {
	switch {
	case v.IsComputed():
		return []string{path}
	case v.IsArray():
		var out []string
		for i, e := range v.AsArray().All {
			out = append(out, unknownPaths(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
		return out
	case v.IsMap():
		var out []string
		for k, e := range v.AsMap().AllStable {
			if path != "" {
				k = path + "." + k
			}
			out = append(out, unknownPaths(k, e)...)
		}
		return out
	}
	return nil
}

// applyDefaults fills schema defaults (defaultValue) for absent inputs and marks inputs
// the schema declares secret.
func applyDefaults(props map[string]schema.Property, inputs property.Map) property.Map {
	for name, prop := range props {
		v, has := inputs.GetOk(name)
		if !has || v.IsNull() {
			if dv, ok := defaultValue(prop, prop.Type); ok {
				inputs = inputs.Set(name, dv)
			}
		}
		if v, has := inputs.GetOk(name); has && prop.Secret {
			inputs = inputs.Set(name, v.WithSecret(true))
		}
	}
	return inputs
}

func (p *Provider) diff(ctx context.Context, req custom.DiffRequest) (custom.DiffResponse, error) {
	r, err := p.resource(req.Type)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	spec, _ := p.resourceSchema(req.Type)
	var resp custom.DiffResponse
	if rd, ok := implemented[custom.ResourceWithDiff](r); ok {
		if resp, err = rd.Diff(ctx, req); err != nil {
			return resp, err
		}
	} else {
		resp = defaultDiff(spec, req)
	}
	if _, ok := implemented[custom.ResourceWithUpdate](r); !ok && (resp.HasChanges || len(resp.Changes) > 0) {
		resp = replacing(resp, defaultDiff(spec, req), req)
	}
	return resp, nil
}

// replacing is d for a backend without Update: every change replaces the
// resource. A d with no detail takes the changed inputs from byKey; if
// none changed, every input replaces it (the engine updates a resource
// whose diff names nothing to replace).
func replacing(d, byKey custom.DiffResponse, req custom.DiffRequest) custom.DiffResponse {
	if len(d.Changes) == 0 {
		d.Changes = byKey.Changes
	}
	changes := make(map[string]custom.DiffKind, len(d.Changes))
	replaces := slices.Clone(d.Replaces)
	for path, kind := range d.Changes {
		switch kind {
		case custom.DiffAdd:
			kind = custom.DiffAddReplace
		case custom.DiffDelete:
			kind = custom.DiffDeleteReplace
		case custom.DiffUpdate:
			kind = custom.DiffUpdateReplace
		}
		changes[path] = kind
		if !slices.Contains(replaces, path) {
			replaces = append(replaces, path)
		}
	}
	if len(replaces) == 0 {
		for _, m := range []property.Map{req.OldInputs, req.Inputs} {
			for k := range m.All {
				if !slices.Contains(replaces, k) {
					replaces = append(replaces, k)
				}
			}
		}
	}
	sort.Strings(replaces)
	d.Changes, d.Replaces, d.HasChanges = changes, replaces, true
	return d
}

// defaultDiff compares old and new inputs key by key. A change to a
// property marked replaceOnChanges in the schema replaces the resource;
// keys in IgnoreChanges are skipped.
func defaultDiff(spec schema.Resource, req custom.DiffRequest) custom.DiffResponse {
	olds := req.OldInputs
	resp := custom.DiffResponse{Changes: map[string]custom.DiffKind{}}
	keys := map[string]bool{}
	for k := range olds.All {
		keys[k] = true
	}
	for k := range req.Inputs.All {
		keys[k] = true
	}
	for k := range keys {
		if slices.Contains(req.IgnoreChanges, k) {
			continue
		}
		o, hasOld := olds.GetOk(k)
		n, hasNew := req.Inputs.GetOk(k)
		if hasOld && hasNew && o.Equals(n) {
			continue
		}
		replace := spec.InputProperties[k].ReplaceOnChanges || spec.InputProperties[k].WillReplaceOnChanges
		var kind custom.DiffKind
		switch {
		case !hasOld:
			kind = pick(replace, custom.DiffAddReplace, custom.DiffAdd)
		case !hasNew:
			kind = pick(replace, custom.DiffDeleteReplace, custom.DiffDelete)
		default:
			kind = pick(replace, custom.DiffUpdateReplace, custom.DiffUpdate)
		}
		resp.Changes[k] = kind
		if replace {
			resp.Replaces = append(resp.Replaces, k)
		}
	}
	sort.Strings(resp.Replaces)
	resp.HasChanges = len(resp.Changes) > 0
	return resp
}

func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

// warnUndeclaredState warns of a custom resource's outputs that its schema
// does not declare. They are recorded all the same: the resource exists.
func (p *Provider) warnUndeclaredState(ctx context.Context, info custom.ResourceInfo, outputs property.Map) {
	if c, ok := p.contracts[info.Type]; ok && c.resource {
		p.warnUndeclared(ctx, info.Type, info.URN, *c.outputs, outputs)
	}
}

// withTimeout bounds a backend call by the request's timeout, if any;
// without one it is ctx itself.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, noCancel
	}
	return context.WithTimeout(ctx, d)
}

func noCancel() {}

func (p *Provider) create(ctx context.Context, req custom.CreateRequest, preview bool) (custom.CreateResponse, error) {
	r, err := p.resource(req.Type)
	if err != nil {
		return custom.CreateResponse{}, err
	}
	if preview {
		return custom.CreateResponse{Outputs: p.previewOutputs(req.Type, req.Inputs)}, nil
	}
	if err := p.checkApplied(req.Type, req.Inputs); err != nil {
		return custom.CreateResponse{}, err
	}
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	resp, err := r.Create(ctx, req)
	if err != nil {
		return resp, p.partial(req.Type, req.Inputs, err)
	}
	if resp.ID == "" {
		return resp, fmt.Errorf("%s %q: backend created a resource without an ID", req.Type, req.Name)
	}
	resp.Outputs = p.secretOutputs(req.Type, req.Inputs, resp.Outputs)
	p.warnUndeclaredState(ctx, req.ResourceInfo, resp.Outputs)
	return resp, nil
}

func (p *Provider) update(ctx context.Context, req custom.UpdateRequest, preview bool) (custom.UpdateResponse, error) {
	r, err := p.resource(req.Type)
	if err != nil {
		return custom.UpdateResponse{}, err
	}
	if preview {
		return custom.UpdateResponse{Outputs: p.previewOutputs(req.Type, req.Inputs)}, nil
	}
	if err := p.checkApplied(req.Type, req.Inputs); err != nil {
		return custom.UpdateResponse{}, err
	}
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	ru, ok := implemented[custom.ResourceWithUpdate](r)
	if !ok {
		return custom.UpdateResponse{}, fmt.Errorf("%s %q has no Update: a change of its inputs replaces it", req.Type, req.Name)
	}
	resp, err := ru.Update(ctx, req)
	if err != nil {
		return resp, p.partial(req.Type, req.Inputs, err)
	}
	resp.Outputs = p.secretOutputs(req.Type, req.Inputs, resp.Outputs)
	p.warnUndeclaredState(ctx, req.ResourceInfo, resp.Outputs)
	return resp, nil
}

func (p *Provider) read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	r, err := p.resource(req.Type)
	if err != nil {
		return custom.ReadResponse{}, err
	}
	rr, ok := implemented[custom.ResourceWithRead](r)
	if !ok {
		if req.Inputs.Len() == 0 && req.Outputs.Len() == 0 && p.recordsSomething(req.Type) {
			return custom.ReadResponse{}, fmt.Errorf("%s %q cannot be imported: its backend has no Read", req.Type, req.Name)
		}
		return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil // as recorded
	}
	resp, err := rr.Read(ctx, req)
	if pe := (*custom.PartialError)(nil); errors.As(err, &pe) {
		_, pe.Outputs = p.readSecrets(req, property.Map{}, pe.Outputs)
	}
	if err != nil || resp.ID == "" {
		return resp, err
	}
	resp.Inputs, resp.Outputs = p.readSecrets(req, resp.Inputs, resp.Outputs)
	p.warnUndeclaredState(ctx, req.ResourceInfo, resp.Outputs)
	return resp, nil
}

// readSecrets keeps secretness across a Read, whose backend answers with
// plain values: the engine stores the answer as is. A top-level key holding
// a secret anywhere in the old inputs (old outputs) is secret in the new
// inputs (outputs), as are the schema's secret properties; outputs also
// follow their same-named input.
func (p *Provider) readSecrets(req custom.ReadRequest, inputs, outputs property.Map) (property.Map, property.Map) {
	spec, _ := p.resourceSchema(req.Type)
	for k, v := range inputs.All {
		if spec.InputProperties[k].Secret || secretKey(k, req.Inputs) {
			inputs = inputs.Set(k, v.WithSecret(true))
		}
	}
	for k, v := range outputs.All {
		if secretKey(k, req.Inputs, req.Outputs) {
			outputs = outputs.Set(k, v.WithSecret(true))
		}
	}
	return inputs, p.secretOutputs(req.Type, inputs, outputs, req.Inputs)
}

func (p *Provider) delete(ctx context.Context, req custom.DeleteRequest) error {
	r, err := p.resource(req.Type)
	if err != nil {
		return err
	}
	rd, ok := implemented[custom.ResourceWithDelete](r)
	if !ok {
		return nil // deleting only forgets it
	}
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	_, err = rd.Delete(ctx, req)
	return err
}

// partial keeps the secretness rules on the state of a partial failure.
func (p *Provider) partial(token string, inputs property.Map, err error) error {
	if pe := (*custom.PartialError)(nil); errors.As(err, &pe) { // wrapped too: the adapter finds it so
		pe.Outputs = p.secretOutputs(token, inputs, pe.Outputs)
	}
	return err
}

// previewOutputs is what a preview shows: the new inputs, and unknown for
// every output only known after apply.
func (p *Provider) previewOutputs(token string, inputs property.Map) property.Map {
	spec, _ := p.resourceSchema(token)
	out := map[string]property.Value{}
	for k, v := range inputs.All {
		out[k] = v
	}
	for k := range spec.Properties {
		if _, isInput := spec.InputProperties[k]; isInput {
			continue
		}
		out[k] = property.New(property.Computed)
	}
	return p.secretOutputs(token, inputs, property.NewMap(out))
}

// secretOutputs marks outputs secret that the schema declares secret or
// whose same-named input was secret.
//
// Unless the backend marks its secrets itself ([custom.ResourceWithExactSecrets]),
// every output is secret once any input (or, on Read, old input) is: the
// host cannot tell which outputs were computed from it. For every
// backend, an output string holding the text of a secret input or of the
// provider's secret configuration, as written or escaped or encoded, is
// secret: a backend that marks its secrets, and forgets one it copied
// (into a URL, say), leaks nothing.
func (p *Provider) secretOutputs(token string, inputs, outputs property.Map, oldInputs ...property.Map) property.Map {
	return redact.Of(append(oldInputs, inputs, p.Config())...).Mark(p.markedOutputs(token, inputs, outputs, oldInputs...))
}

// markedOutputs are outputs marked by provenance, as secretOutputs says.
func (p *Provider) markedOutputs(token string, inputs, outputs property.Map, oldInputs ...property.Map) property.Map {
	if exact, ok := p.resources[token].(custom.ResourceWithExactSecrets); !ok || !exact.ExactSecrets() {
		for _, m := range append(oldInputs, inputs) {
			if property.New(m).HasSecrets() {
				return allSecret(outputs)
			}
		}
	}
	spec, _ := p.resourceSchema(token)
	for k, v := range outputs.All {
		if spec.Properties[k].Secret || inputs.Get(k).Secret() {
			outputs = outputs.Set(k, v.WithSecret(true))
		}
	}
	return outputs
}
