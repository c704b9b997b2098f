package custom

import (
	"context"
	"time"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// TypedResource is the backend of one custom resource type, I its inputs
// and O its outputs. Create is required; Check, Diff, Read, Update and
// Delete are optional, as the package doc says.
type TypedResource[I, O any] interface {
	Create(ctx context.Context, req TypedCreateRequest[I]) (TypedCreateResponse[O], error)
}

// TypedResourceWithCheck validates and normalises inputs. Report bad input
// as Failures, not as an error.
type TypedResourceWithCheck[I any] interface {
	Check(ctx context.Context, req TypedCheckRequest[I]) (TypedCheckResponse[I], error)
}

// TypedResourceWithDiff computes its own diff.
type TypedResourceWithDiff[I, O any] interface {
	Diff(ctx context.Context, req TypedDiffRequest[I, O]) (DiffResponse, error)
}

// TypedResourceWithRead reads the live state, on refresh and import.
type TypedResourceWithRead[I, O any] interface {
	Read(ctx context.Context, req TypedReadRequest[I, O]) (TypedReadResponse[I, O], error)
}

// TypedResourceWithUpdate updates a resource in place.
type TypedResourceWithUpdate[I, O any] interface {
	Update(ctx context.Context, req TypedUpdateRequest[I, O]) (TypedUpdateResponse[O], error)
}

// TypedResourceWithDelete deletes a resource.
type TypedResourceWithDelete[I, O any] interface {
	Delete(ctx context.Context, req TypedDeleteRequest[I, O]) (DeleteResponse, error)
}

// TypedCheckRequest asks whether inputs are valid.
type TypedCheckRequest[I any] struct {
	ResourceInfo
	OldInputs  I // zero on create
	Inputs     I
	RandomSeed []byte
	Autonaming *Autonaming // nil when the program asks nothing
}

// TypedCheckResponse returns the checked inputs, or the failures; zero
// Inputs as the package doc says.
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

// TypedCreateRequest creates a resource.
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

// TypedReadRequest reads a resource's live state. For an import only ID
// is set.
type TypedReadRequest[I, O any] struct {
	ResourceInfo
	ID      resource.ID
	Inputs  I
	Outputs O
}

// TypedReadResponse is the live state; an empty ID means the resource is
// gone. Inputs are the inputs that would produce it, which the engine
// records and the next diff compares against (zero Inputs as the package
// doc says). Plain values are fine: the host keeps secret each top-level
// key that held a secret in the request, and the schema's secrets.
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
