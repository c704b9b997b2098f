package host

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
)

// Names moved out of host, kept one release so that `go fix ./...`
// rewrites a plugin written against them (see CHANGELOG.md).

// Custom resources: package host/custom.
type (
	// Deprecated: use custom.Resource.
	//go:fix inline
	Resource = custom.Resource
	// Deprecated: use custom.ResourceWithCheck.
	//go:fix inline
	ResourceWithCheck = custom.ResourceWithCheck
	// Deprecated: use custom.ResourceWithDiff.
	//go:fix inline
	ResourceWithDiff = custom.ResourceWithDiff
	// Deprecated: use custom.ResourceWithExactSecrets.
	//go:fix inline
	ResourceWithExactSecrets = custom.ResourceWithExactSecrets
	// Deprecated: use custom.ResourceInfo.
	//go:fix inline
	ResourceInfo = custom.ResourceInfo
	// Deprecated: use custom.CheckRequest.
	//go:fix inline
	CheckRequest = custom.CheckRequest
	// Deprecated: use custom.CheckResponse.
	//go:fix inline
	CheckResponse = custom.CheckResponse
	// Deprecated: use custom.DiffRequest.
	//go:fix inline
	DiffRequest = custom.DiffRequest
	// Deprecated: use custom.DiffResponse.
	//go:fix inline
	DiffResponse = custom.DiffResponse
	// Deprecated: use custom.DiffKind.
	//go:fix inline
	DiffKind = custom.DiffKind
	// Deprecated: use custom.CreateRequest.
	//go:fix inline
	CreateRequest = custom.CreateRequest
	// Deprecated: use custom.CreateResponse.
	//go:fix inline
	CreateResponse = custom.CreateResponse
	// Deprecated: use custom.ReadRequest.
	//go:fix inline
	ReadRequest = custom.ReadRequest
	// Deprecated: use custom.ReadResponse.
	//go:fix inline
	ReadResponse = custom.ReadResponse
	// Deprecated: use custom.UpdateRequest.
	//go:fix inline
	UpdateRequest = custom.UpdateRequest
	// Deprecated: use custom.UpdateResponse.
	//go:fix inline
	UpdateResponse = custom.UpdateResponse
	// Deprecated: use custom.DeleteRequest.
	//go:fix inline
	DeleteRequest = custom.DeleteRequest
	// Deprecated: use custom.DeleteResponse.
	//go:fix inline
	DeleteResponse = custom.DeleteResponse
	// Deprecated: use custom.PartialError.
	//go:fix inline
	PartialError = custom.PartialError
	// Deprecated: use custom.Autonaming.
	//go:fix inline
	Autonaming = custom.Autonaming
	// Deprecated: use custom.AutonamingMode.
	//go:fix inline
	AutonamingMode = custom.AutonamingMode
)

// Deprecated: use the constants of package host/custom.
//
//go:fix inline
const (
	DiffAdd           = custom.DiffAdd
	DiffAddReplace    = custom.DiffAddReplace
	DiffDelete        = custom.DiffDelete
	DiffDeleteReplace = custom.DiffDeleteReplace
	DiffUpdate        = custom.DiffUpdate
	DiffUpdateReplace = custom.DiffUpdateReplace
	AutonamingPropose = custom.AutonamingPropose
	AutonamingEnforce = custom.AutonamingEnforce
	AutonamingDisable = custom.AutonamingDisable
)

// Errors a user sees: package host/diag.
type (
	// Deprecated: use diag.InputError (Properties is Failures).
	//go:fix inline
	InputError = diag.InputError
	// Deprecated: use diag.CheckFailure (Path is Property).
	//go:fix inline
	PropertyError = diag.CheckFailure
	// Deprecated: use diag.StepError.
	//go:fix inline
	StepError = diag.StepError
)

// Deprecated: use diag.Errorf.
//
//go:fix inline
func Errorf(path, format string, args ...any) error { return diag.Errorf(path, format, args...) }

// The protocol's types: package monitorclient.
type (
	// Deprecated: use monitorclient.ResourceOptions.
	//go:fix inline
	ResourceOptions = monitorclient.ResourceOptions
	// Deprecated: use monitorclient.CallResponse.
	//go:fix inline
	CallResult = monitorclient.CallResponse
)

// Deprecated: use func(context.Context, property.Map) error.
//
//go:fix inline
type ConfigureFunc = func(ctx context.Context, config property.Map) error

// Deprecated: use WithConfig, which takes the same function.
//
//go:fix inline
func WithConfigure(fn ConfigureFunc) Option { return WithConfig(fn) }
