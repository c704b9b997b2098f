// Package custom holds what a custom resource's backend implements, in
// one of two forms, with the requests the host sends it and the responses
// it returns:
//
//   - typed: a [TypedResource] takes its inputs and gives its outputs as Go
//     structs I and O, tagged as a component's arguments are. Register it
//     with host.WithTypedResource.
//   - raw: a [Resource] takes and gives property maps. Register it with
//     host.WithResource (host.WithRawResource to give its Go types).
//
// In both, Create is required and the rest optional, each method an
// interface of its own ([TypedResourceWithUpdate], [ResourceWithUpdate],
// ...): without Check the host checks the inputs against the schema;
// without Diff it compares them key by key; without Update every change
// of an input replaces the resource; without Read a refresh keeps what is
// recorded, even an empty state, and an import fails (for a type whose
// schema requires no property an import cannot be told from a refresh of
// an empty state, and keeps it); without Delete deleting only forgets the
// resource.
//
// Create and Update are never called in a preview: the host answers for
// them, with the inputs and every other output unknown, so no backend
// acts on a preview.
//
// Every request carries the resource's URN, name and type and the
// configuration of the provider serving it ([ResourceInfo]); host.Config
// reads that configuration as WithConfig's type, and host.Logger logs to
// the CLI attached to the resource. Check also gets the program's
// autonaming configuration.
package custom

import (
	"context"
	"fmt"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
)

// Resource is the raw backend of one custom resource type: its requests
// and responses hold property maps. Create is required; the others are
// optional ([ResourceWithCheck], [ResourceWithDiff], [ResourceWithRead],
// [ResourceWithUpdate], [ResourceWithDelete]), as the package doc says.
type Resource interface {
	Create(ctx context.Context, req CreateRequest) (CreateResponse, error)
}

// ResourceWithRead reads the live state, on refresh and import.
type ResourceWithRead interface {
	Read(ctx context.Context, req ReadRequest) (ReadResponse, error)
}

// ResourceWithUpdate updates a resource in place.
type ResourceWithUpdate interface {
	Update(ctx context.Context, req UpdateRequest) (UpdateResponse, error)
}

// ResourceWithDelete deletes a resource.
type ResourceWithDelete interface {
	Delete(ctx context.Context, req DeleteRequest) (DeleteResponse, error)
}

// ResourceWithCheck validates and normalises inputs itself. Report bad
// input as Failures, not as an error.
type ResourceWithCheck interface {
	Check(ctx context.Context, req CheckRequest) (CheckResponse, error)
}

// ResourceWithDiff computes its own diff.
type ResourceWithDiff interface {
	Diff(ctx context.Context, req DiffRequest) (DiffResponse, error)
}

// ResourceWithExactSecrets is a raw backend that marks the secrets of its
// outputs itself, exactly, when ExactSecrets returns true. The host then
// adds only the schema's secret properties and outputs named after a
// secret input. For any other raw backend, every output is secret once any
// input is: the host cannot tell which outputs were computed from it. A
// [TypedResource] needs none: its property.Value fields say it.
type ResourceWithExactSecrets interface {
	ExactSecrets() bool
}

// ResourceInfo identifies the resource a request is about, and the
// configuration of the provider serving it.
type ResourceInfo struct {
	URN  urn.URN
	Name string
	Type string
	// Config is the provider's configuration as the engine configured it
	// (after CheckConfig's defaults), secrets marked; empty before
	// Configure, and in a preview some values may be unknown. It is what
	// host.WithConfig's function got: a backend that only needs a value
	// reads it here, without keeping it itself.
	Config property.Map
}

// CheckRequest asks whether inputs are valid.
type CheckRequest struct {
	ResourceInfo
	OldInputs  property.Map // empty on create
	Inputs     property.Map
	RandomSeed []byte
	// Autonaming is what the program's autonaming configuration asks of a
	// name the backend would generate; nil when it asks nothing.
	Autonaming *Autonaming
}

// Autonaming is the engine's request for a generated name: use
// ProposedName (AutonamingPropose: may adjust it; AutonamingEnforce: as
// is), or generate none (AutonamingDisable: the user must name it).
type Autonaming struct {
	ProposedName string
	Mode         AutonamingMode
}

// AutonamingMode says how a backend uses Autonaming.ProposedName.
type AutonamingMode int

const (
	AutonamingPropose AutonamingMode = iota
	AutonamingEnforce
	AutonamingDisable
)

// CheckResponse returns the checked inputs, or the failures.
type CheckResponse struct {
	Inputs   property.Map
	Failures []diag.CheckFailure
}

// DiffRequest compares the recorded state with new inputs.
type DiffRequest struct {
	ResourceInfo
	ID            resource.ID
	OldInputs     property.Map
	OldOutputs    property.Map
	Inputs        property.Map
	IgnoreChanges []string
}

// DiffKind is how one property changes.
type DiffKind int

// The kinds of property change.
const (
	DiffAdd DiffKind = iota
	DiffAddReplace
	DiffDelete
	DiffDeleteReplace
	DiffUpdate
	DiffUpdateReplace
)

// DiffResponse says what changes. Replaces non-empty means the resource
// must be replaced.
type DiffResponse struct {
	HasChanges          bool
	Changes             map[string]DiffKind // property path -> change
	Replaces            []string
	DeleteBeforeReplace bool
}

// CreateRequest creates a resource. Create is never called in a preview:
// the host answers for it.
type CreateRequest struct {
	ResourceInfo
	Inputs  property.Map
	Timeout time.Duration
}

// CreateResponse is the new resource's ID and outputs.
type CreateResponse struct {
	ID      resource.ID
	Outputs property.Map
}

// ReadRequest reads a resource's live state. For an import only ID is set.
type ReadRequest struct {
	ResourceInfo
	ID      resource.ID
	Inputs  property.Map
	Outputs property.Map
}

// ReadResponse is the live state. An empty ID means the resource is gone.
// Inputs are the inputs that would produce it: after a refresh or import the
// engine records them as the resource's inputs, and the next diff compares
// against them, so leaving them empty records a resource without inputs.
// Plain values are fine: the host keeps secret each top-level key that held
// a secret in the request's Inputs or Outputs, and the schema's secret
// properties.
type ReadResponse struct {
	ID      resource.ID
	Inputs  property.Map
	Outputs property.Map
}

// UpdateRequest updates a resource in place. Update is never called in a
// preview: the host answers for it.
type UpdateRequest struct {
	ResourceInfo
	ID            resource.ID
	OldInputs     property.Map
	OldOutputs    property.Map
	Inputs        property.Map
	IgnoreChanges []string
	Timeout       time.Duration
}

// UpdateResponse is the updated outputs.
type UpdateResponse struct {
	Outputs property.Map
}

// DeleteRequest deletes a resource.
type DeleteRequest struct {
	ResourceInfo
	ID      resource.ID
	Inputs  property.Map
	Outputs property.Map
	Timeout time.Duration
}

// DeleteResponse is empty; it exists so the method can grow.
type DeleteResponse struct{}

// PartialError reports a create or update that failed after the resource
// came to exist: the engine records ID and Outputs, so nothing is orphaned,
// and the next update retries.
type PartialError struct {
	ID      resource.ID
	Outputs property.Map
	Err     error
}

func (e *PartialError) Error() string {
	return fmt.Sprintf("resource %s was created but is not fully initialised: %v", e.ID, e.Err)
}

func (e *PartialError) Unwrap() error { return e.Err }
