// Package custom holds what a custom resource's backend implements, with
// the requests the host sends it and the responses it returns: one family
// of types over the backend's inputs I and outputs (its state) O.
//
//   - I and O Go structs, tagged `pulumi:"name"` as a component's arguments
//     are: register the backend with host.WithTypedResource, which decodes
//     each request into them and encodes what the backend returns.
//   - I and O property.Map, the raw form ([Resource], [CreateRequest], ...
//     name these instances): register it with host.WithResource, or
//     host.WithRawResource to give the Go types of its schema.
//
// Create is required, each other method an interface of its own
// ([TypedResourceWithCheck], ...): without Check the host checks the inputs
// against the schema; without Diff it compares them key by key; without
// Update every change of an input replaces the resource; without Read a
// refresh keeps what is recorded and an import fails (for a type whose
// schema requires nothing an import cannot be told from a refresh of an
// empty state, and keeps it); without Delete deleting only forgets the
// resource. Create and Update are never called in a preview: the host
// answers for them, with the inputs and every other output unknown.
//
// The two registrations differ in what the host does around the backend:
//
//   - Check: WithTypedResource's gets inputs the schema accepted, its
//     defaults applied; WithResource's replaces the schema's check.
//   - Inputs left zero in a [TypedCheckResponse] or [TypedReadResponse]:
//     WithTypedResource keeps the request's (for Read, those recorded);
//     WithResource takes them as they are, and an empty map read records a
//     resource without inputs.
//   - Secrets: WithTypedResource marks secret the outputs O's
//     property.Value fields say, and all of them once a secret input reached
//     a plain field (the engine shows a warning naming it); WithResource
//     makes every output secret once any input is, unless the backend is a
//     [ResourceWithExactSecrets]. Both add the schema's secret properties,
//     outputs named after a secret input and output strings holding a
//     secret's text.
//   - Unknowns (in a preview, only in Check and Diff): under
//     WithTypedResource a plain field gets its zero value, and the host
//     keeps that input unknown in Check's answer, drops Check's failures
//     about it and counts it as changed in Diff's.
//
// Every request carries the resource's URN, name and type and the
// configuration of the provider serving it ([ResourceInfo]); host.Config
// reads that configuration as WithConfig's type, and host.Logger logs to
// the CLI attached to the resource.
package custom

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// The raw form: the family over property maps.
type (
	Resource           = TypedResource[property.Map, property.Map]
	ResourceWithCheck  = TypedResourceWithCheck[property.Map]
	ResourceWithDiff   = TypedResourceWithDiff[property.Map, property.Map]
	ResourceWithRead   = TypedResourceWithRead[property.Map, property.Map]
	ResourceWithUpdate = TypedResourceWithUpdate[property.Map, property.Map]
	ResourceWithDelete = TypedResourceWithDelete[property.Map, property.Map]
	CheckRequest       = TypedCheckRequest[property.Map]
	CheckResponse      = TypedCheckResponse[property.Map]
	DiffRequest        = TypedDiffRequest[property.Map, property.Map]
	CreateRequest      = TypedCreateRequest[property.Map]
	CreateResponse     = TypedCreateResponse[property.Map]
	ReadRequest        = TypedReadRequest[property.Map, property.Map]
	ReadResponse       = TypedReadResponse[property.Map, property.Map]
	UpdateRequest      = TypedUpdateRequest[property.Map, property.Map]
	UpdateResponse     = TypedUpdateResponse[property.Map]
	DeleteRequest      = TypedDeleteRequest[property.Map, property.Map]
	PartialError       = TypedPartialError[property.Map]
)

// ResourceWithExactSecrets is a backend served by host.WithResource that
// marks the secrets of its outputs itself when ExactSecrets returns true:
// the host then adds only the schema's secrets and outputs named after a
// secret input.
type ResourceWithExactSecrets interface {
	ExactSecrets() bool
}

// ResourceInfo identifies the resource a request is about.
type ResourceInfo struct {
	URN  urn.URN
	Name string
	Type string
	// Config is the provider's configuration (after CheckConfig's
	// defaults), secrets marked, as host.WithConfig's function got it:
	// empty before Configure; in a preview a value may be unknown.
	Config property.Map
}

// Autonaming is what the program's autonaming configuration asks of a
// name the backend would generate: use ProposedName (AutonamingPropose:
// may adjust it; AutonamingEnforce: as is), or generate none
// (AutonamingDisable: the user must name it).
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

// DeleteResponse is empty; it exists so the method can grow.
type DeleteResponse struct{}

// TypedPartialError reports a create or update that failed after the
// resource came to exist: the engine records ID and Outputs, so nothing
// is orphaned, and the next update retries.
type TypedPartialError[O any] struct {
	ID      resource.ID
	Outputs O
	Err     error
}

func (e *TypedPartialError[O]) Error() string {
	return fmt.Sprintf("resource %s was created but is not fully initialised: %v", e.ID, e.Err)
}

func (e *TypedPartialError[O]) Unwrap() error { return e.Err }
