package custom

import (
	"context"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/polyhost/polyhost/host/diag"
)

// TypedResource is the backend of one custom resource type written with
// Go types: I its inputs and O its outputs (its state), structs tagged
// `pulumi:"name"` as a component's arguments are; they are the schema's,
// or checked against it. Create is required; Check, Diff, Read, Update and
// Delete are optional ([TypedResourceWithCheck], ...), as the package doc
// says. The requests are the raw ones' with their maps decoded into I and
// O; host.WithTypedResource registers it, and the host encodes what it
// returns.
//
// A property.Value field keeps the value's markers, in and out: secret,
// unknown, dependencies. Secrets: an input secret that reaches any other
// field is one the host cannot follow, so every output is then secret
// (and the engine shows a warning naming the field), as for components;
// otherwise the outputs are secret where O's property.Value fields say,
// where the schema says and where an input of the same name was. Declare
// as property.Value an input that may be secret and whose derived outputs
// should stay plain. Unknowns reach only Check and Diff, in a preview: a
// plain field gets its zero value; the host keeps that input unknown in
// Check's answer, drops Check's failures about it, and counts it as
// changed in Diff's.
type TypedResource[I, O any] interface {
	Create(ctx context.Context, req TypedCreateRequest[I]) (TypedCreateResponse[O], error)
}

// TypedResourceWithCheck validates and normalises inputs that the schema
// accepts (its defaults applied). Report bad input as Failures, not as an
// error.
type TypedResourceWithCheck[I any] interface {
	Check(ctx context.Context, req TypedCheckRequest[I]) (TypedCheckResponse[I], error)
}

// TypedResourceWithDiff computes its own diff. Without Update, every
// change it reports replaces the resource.
type TypedResourceWithDiff[I, O any] interface {
	Diff(ctx context.Context, req TypedDiffRequest[I, O]) (DiffResponse, error)
}

// TypedResourceWithRead reads the live state, on refresh and import.
type TypedResourceWithRead[I, O any] interface {
	Read(ctx context.Context, req TypedReadRequest[I, O]) (TypedReadResponse[I, O], error)
}

// TypedResourceWithUpdate updates a resource in place. It is never called
// in a preview.
type TypedResourceWithUpdate[I, O any] interface {
	Update(ctx context.Context, req TypedUpdateRequest[I, O]) (TypedUpdateResponse[O], error)
}

// TypedResourceWithDelete deletes a resource.
type TypedResourceWithDelete[I, O any] interface {
	Delete(ctx context.Context, req TypedDeleteRequest[I, O]) (DeleteResponse, error)
}

// TypedCheckRequest asks whether inputs are valid, as [CheckRequest].
type TypedCheckRequest[I any] struct {
	ResourceInfo
	OldInputs  I // zero on create
	Inputs     I
	RandomSeed []byte
	Autonaming *Autonaming
}

// TypedCheckResponse returns the checked inputs, or the failures. Inputs
// left zero are the request's, unchanged.
type TypedCheckResponse[I any] struct {
	Inputs   I
	Failures []diag.CheckFailure
}

// TypedDiffRequest compares the recorded state with new inputs.
type TypedDiffRequest[I, O any] struct {
	ResourceInfo
	ID            resource.ID
	OldInputs     I
	OldOutputs    O
	Inputs        I
	IgnoreChanges []string
}

// TypedCreateRequest creates a resource. Create is never called in a
// preview: the host answers for it.
type TypedCreateRequest[I any] struct {
	ResourceInfo
	Inputs  I
	Timeout time.Duration
}

// TypedCreateResponse is the new resource's ID and outputs.
type TypedCreateResponse[O any] struct {
	ID      resource.ID
	Outputs O
}

// TypedReadRequest reads a resource's live state. For an import only ID is
// set: Inputs and Outputs are zero.
type TypedReadRequest[I, O any] struct {
	ResourceInfo
	ID      resource.ID
	Inputs  I
	Outputs O
}

// TypedReadResponse is the live state, as [ReadResponse]: an empty ID
// means the resource is gone, and Inputs are what the engine records as
// the resource's inputs: left zero, the recorded ones are kept.
type TypedReadResponse[I, O any] struct {
	ID      resource.ID
	Inputs  I
	Outputs O
}

// TypedUpdateRequest updates a resource in place.
type TypedUpdateRequest[I, O any] struct {
	ResourceInfo
	ID            resource.ID
	OldInputs     I
	OldOutputs    O
	Inputs        I
	IgnoreChanges []string
	Timeout       time.Duration
}

// TypedUpdateResponse is the updated outputs.
type TypedUpdateResponse[O any] struct {
	Outputs O
}

// TypedDeleteRequest deletes a resource.
type TypedDeleteRequest[I, O any] struct {
	ResourceInfo
	ID      resource.ID
	Inputs  I
	Outputs O
	Timeout time.Duration
}

// TypedPartialError is a [PartialError] of a typed backend: a create or
// update that failed after the resource came to exist, with its outputs.
type TypedPartialError[O any] struct {
	ID      resource.ID
	Outputs O
	Err     error
}

func (e *TypedPartialError[O]) Error() string { return (&PartialError{ID: e.ID, Err: e.Err}).Error() }

func (e *TypedPartialError[O]) Unwrap() error { return e.Err }
