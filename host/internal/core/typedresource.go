package core

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/typed"
)

// A backend served by WithTypedResource, wrapped into one over property
// maps (custom.Resource, the same family over maps), as NewConstructor
// wraps a component's function: each request's maps decoded into the
// author's I and O, its answers encoded. What it returns is secret as for
// a component: all of it if an input's secret reached a plain Go field,
// else as its property.Value fields say (the CRUD path adds the schema's
// secrets and those named after a secret input). What its author did not
// write, the CRUD path decides (crud.go); package custom's doc says where
// the two registrations differ.

// typedResource is a custom.TypedResource[I, O] over maps; the optional
// methods are nil where its author wrote none.
type typedResource[I, O any] struct {
	p      *Provider // registered on: its schema is every instance's
	token  string
	create custom.TypedResource[I, O]
	check  custom.TypedResourceWithCheck[I]
	diff   custom.TypedResourceWithDiff[I, O]
	read   custom.TypedResourceWithRead[I, O]
	update custom.TypedResourceWithUpdate[I, O]
	delete custom.TypedResourceWithDelete[I, O]
}

// NewTypedResource is r, the backend of token, over maps.
func NewTypedResource[I, O any](p *Provider, token string, r custom.TypedResource[I, O]) custom.Resource {
	t := &typedResource[I, O]{p: p, token: token, create: r}
	t.check, _ = r.(custom.TypedResourceWithCheck[I])
	t.diff, _ = r.(custom.TypedResourceWithDiff[I, O])
	t.read, _ = r.(custom.TypedResourceWithRead[I, O])
	t.update, _ = r.(custom.TypedResourceWithUpdate[I, O])
	t.delete, _ = r.(custom.TypedResourceWithDelete[I, O])
	return t
}

// wrote says whether the author wrote the optional method whose interface
// over maps m points to (implemented asks).
func (t *typedResource[I, O]) wrote(m any) bool {
	switch m.(type) {
	case *custom.ResourceWithCheck:
		return t.check != nil
	case *custom.ResourceWithDiff:
		return t.diff != nil
	case *custom.ResourceWithRead:
		return t.read != nil
	case *custom.ResourceWithUpdate:
		return t.update != nil
	case *custom.ResourceWithDelete:
		return t.delete != nil
	}
	return true
}

// ExactSecrets: the wrapper marks what the host cannot follow itself.
func (t *typedResource[I, O]) ExactSecrets() bool { return true }

// Check runs the schema's check, then the author's on inputs that pass
// it. Markers plain fields could not carry are put back: an input unknown
// in a preview stays unknown, and the author's failures about it are
// dropped (they are about its zero value); with a secret lost, the inputs
// the author changed are secret too.
func (t *typedResource[I, O]) Check(ctx context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	checked := t.p.schemaCheck(req)
	if len(checked.Failures) > 0 {
		return checked, nil
	}
	news, lost, err := decodeInputs[I](checked.Inputs)
	if ie, ok := asInputError(err); ok {
		return custom.CheckResponse{Inputs: checked.Inputs, Failures: ie.Failures}, nil
	}
	if err != nil {
		return custom.CheckResponse{}, err
	}
	olds, _, err := decodeRecorded[I]("inputs", req.OldInputs)
	if err != nil {
		return custom.CheckResponse{}, err
	}
	resp, err := t.check.Check(ctx, custom.TypedCheckRequest[I]{ResourceInfo: req.ResourceInfo,
		OldInputs: olds, Inputs: news, RandomSeed: req.RandomSeed, Autonaming: req.Autonaming})
	if err != nil {
		return custom.CheckResponse{}, err
	}
	inputs, err := answeredInputs(resp.Inputs, checked.Inputs)
	if err != nil {
		return custom.CheckResponse{}, err
	}
	unknown := topKeys(lost.Unknown)
	for _, k := range unknown {
		inputs = inputs.Set(k, checked.Inputs.Get(k))
	}
	failures := slices.DeleteFunc(slices.Clone(resp.Failures), func(f diag.CheckFailure) bool {
		return slices.Contains(unknown, topKey(f.Property))
	})
	if len(lost.Secret) > 0 {
		secret := topKeys(lost.Secret)
		for k, v := range inputs.All {
			if slices.Contains(secret, k) || !plainEqual(v, checked.Inputs.Get(k)) {
				inputs = inputs.Set(k, v.WithSecret(true))
			}
		}
	}
	spec, _ := t.p.resourceSchema(req.Type)
	return custom.CheckResponse{Inputs: applyDefaults(spec.InputProperties, inputs), Failures: failures}, nil
}

// Diff runs the author's diff; an input unknown in a preview that a plain
// field could not carry counts as changed.
func (t *typedResource[I, O]) Diff(ctx context.Context, req custom.DiffRequest) (custom.DiffResponse, error) {
	news, lost, err := decodeInputs[I](req.Inputs)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	olds, state, _, err := decodeState[I, O](req.OldInputs, req.OldOutputs)
	if err != nil {
		return custom.DiffResponse{}, err
	}
	resp, err := t.diff.Diff(ctx, custom.TypedDiffRequest[I, O]{ResourceInfo: req.ResourceInfo, ID: req.ID,
		OldInputs: olds, OldOutputs: state, Inputs: news, IgnoreChanges: req.IgnoreChanges})
	if err != nil {
		return resp, err
	}
	for _, k := range topKeys(lost.Unknown) {
		if _, ok := resp.Changes[k]; ok || slices.Contains(req.IgnoreChanges, k) {
			continue
		}
		if resp.Changes == nil {
			resp.Changes = map[string]custom.DiffKind{}
		}
		resp.Changes[k], resp.HasChanges = custom.DiffUpdate, true
	}
	return resp, nil
}

func (t *typedResource[I, O]) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	in, lost, err := decodeInputs[I](req.Inputs)
	if err != nil {
		return custom.CreateResponse{}, err
	}
	resp, err := t.create.Create(ctx, custom.TypedCreateRequest[I]{ResourceInfo: req.ResourceInfo, Inputs: in, Timeout: req.Timeout})
	if err != nil {
		return custom.CreateResponse{}, t.partial(ctx, req.ResourceInfo, err, lost.Secret)
	}
	outputs, err := t.outputs(ctx, req.ResourceInfo, resp.Outputs, lost.Secret)
	return custom.CreateResponse{ID: resp.ID, Outputs: outputs}, err
}

// Read gives the author the recorded inputs and outputs, zero for an
// import.
func (t *typedResource[I, O]) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	in, state, lost, err := decodeState[I, O](req.Inputs, req.Outputs)
	if err != nil {
		return custom.ReadResponse{}, err
	}
	resp, err := t.read.Read(ctx, custom.TypedReadRequest[I, O]{ResourceInfo: req.ResourceInfo, ID: req.ID, Inputs: in, Outputs: state})
	if err != nil {
		return custom.ReadResponse{}, t.partial(ctx, req.ResourceInfo, err, lost.Secret)
	}
	if resp.ID == "" {
		return custom.ReadResponse{}, nil // gone
	}
	inputs, err := answeredInputs(resp.Inputs, req.Inputs)
	if err != nil {
		return custom.ReadResponse{}, err
	}
	outputs, err := t.outputs(ctx, req.ResourceInfo, resp.Outputs, lost.Secret)
	return custom.ReadResponse{ID: resp.ID, Inputs: inputs, Outputs: outputs}, err
}

func (t *typedResource[I, O]) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	news, lost, err := decodeInputs[I](req.Inputs)
	if err != nil {
		return custom.UpdateResponse{}, err
	}
	olds, state, lostOld, err := decodeState[I, O](req.OldInputs, req.OldOutputs)
	if err != nil {
		return custom.UpdateResponse{}, err
	}
	resp, err := t.update.Update(ctx, custom.TypedUpdateRequest[I, O]{ResourceInfo: req.ResourceInfo, ID: req.ID,
		OldInputs: olds, OldOutputs: state, Inputs: news, IgnoreChanges: req.IgnoreChanges, Timeout: req.Timeout})
	lostSecret := slices.Concat(lost.Secret, lostOld.Secret)
	if err != nil {
		return custom.UpdateResponse{}, t.partial(ctx, req.ResourceInfo, err, lostSecret)
	}
	outputs, err := t.outputs(ctx, req.ResourceInfo, resp.Outputs, lostSecret)
	return custom.UpdateResponse{Outputs: outputs}, err
}

func (t *typedResource[I, O]) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	in, state, _, err := decodeState[I, O](req.Inputs, req.Outputs)
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	return t.delete.Delete(ctx, custom.TypedDeleteRequest[I, O]{ResourceInfo: req.ResourceInfo, ID: req.ID, Inputs: in, Outputs: state, Timeout: req.Timeout})
}

// outputs encodes what the author returned: all secret if a secret input
// reached a plain Go field (lostSecret), with the warning a component gets.
func (t *typedResource[I, O]) outputs(ctx context.Context, info custom.ResourceInfo, out O, lostSecret []string) (property.Map, error) {
	m, err := encodeAnswer("outputs", out)
	if err != nil || len(lostSecret) == 0 {
		return m, err
	}
	if s := scopeOf(ctx); s != nil {
		s.p.warnSecretArgs(ctx, t.token, info.URN, lostSecret)
	}
	return allSecret(m), nil
}

// partial turns the author's TypedPartialError[O] into one over maps, its
// outputs encoded as outputs says.
func (t *typedResource[I, O]) partial(ctx context.Context, info custom.ResourceInfo, err error, lostSecret []string) error {
	var pe *custom.TypedPartialError[O]
	if !errors.As(err, &pe) {
		return err
	}
	m, encErr := t.outputs(ctx, info, pe.Outputs, lostSecret)
	if encErr != nil {
		return errors.Join(err, encErr)
	}
	return &custom.PartialError{ID: pe.ID, Outputs: m, Err: pe.Err}
}

// decodeInputs decodes a request's inputs into T: a mismatch is the
// user's, an InputError.
func decodeInputs[T any](m property.Map) (T, typed.Lost, error) {
	var v T
	lost, err := decodeArgs(m, &v)
	return v, lost, err
}

// decodeState decodes a recorded state, inputs into I and outputs into O,
// as decodeRecorded does.
func decodeState[I, O any](inputs, outputs property.Map) (I, O, typed.Lost, error) {
	in, lost, err := decodeRecorded[I]("inputs", inputs)
	if err != nil {
		var out O
		return in, out, lost, err
	}
	out, _, err := decodeRecorded[O]("outputs", outputs)
	return in, out, lost, err
}

// decodeRecorded decodes what the engine recorded (old inputs, outputs)
// into T: empty, as on create and import, it is T's zero. A property
// missing is left at its zero value (a state recorded before the type had
// it); a mismatch is not the user's input but a state the Go type no
// longer fits.
func decodeRecorded[T any](what string, m property.Map) (T, typed.Lost, error) {
	var v T
	if m.Len() == 0 {
		return v, typed.Lost{}, nil
	}
	if raw, ok := any(&v).(*property.Map); ok {
		*raw = m
		return v, typed.Lost{}, nil
	}
	lost, err := typed.Decode(m, &v)
	if errs, ok := err.(typed.Errors); ok {
		if errs = slices.DeleteFunc(errs, func(f diag.CheckFailure) bool {
			return strings.HasPrefix(f.Reason, "missing required property")
		}); len(errs) == 0 {
			err = nil
		} else {
			err = errs
		}
	}
	if err != nil {
		return v, lost, fmt.Errorf("the recorded %s do not decode into %T: %w", what, v, err)
	}
	return v, lost, nil
}

// encodeAnswer encodes what the author returned.
func encodeAnswer(what string, v any) (property.Map, error) {
	m, err := typed.Encode(v)
	if err != nil {
		return property.Map{}, fmt.Errorf("encoding the %s: %w", what, err)
	}
	return m, nil
}

// answeredInputs encodes the inputs a Check or Read returned; left zero,
// they are the request's, as they were.
func answeredInputs[I any](in I, request property.Map) (property.Map, error) {
	if reflect.ValueOf(&in).Elem().IsZero() {
		return request, nil
	}
	return encodeAnswer("inputs", in)
}

// topKey is the top-level property of a path: "tags" of `tags["a"]`.
func topKey(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// topKeys are the top-level properties of paths, each once.
func topKeys(paths []string) []string {
	var out []string
	for _, p := range paths {
		if k := topKey(p); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// plainEqual reports whether a and b are equal but for their markers at
// the top.
func plainEqual(a, b property.Value) bool {
	return a.WithSecret(false).WithDependencies(nil).Equals(b.WithSecret(false).WithDependencies(nil))
}
