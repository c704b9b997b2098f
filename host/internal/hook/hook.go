// Package hook lets host/gosdk serve tokens through the host's gRPC server
// with the Go SDK's provider.Construct and provider.Call, without package
// host importing the Go SDK.
package hook

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Construct builds a component from the raw request. engineAddr is the
// engine's address, for the SDK's logging connection; inputs are the
// request's inputs as the host read them, with secret, unknown and
// dependency markers, already checked against the schema.
type Construct func(ctx context.Context, engineAddr string, inputs property.Map, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error)

// Call serves a method from the raw request; args as inputs above.
type Call func(ctx context.Context, engineAddr string, args property.Map, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error)

// Handler serves one token: a component (Construct) or a method (Call).
// Args and Result are the Go types of its arguments and of its component
// or method result, and Fn the author's function (for its doc comment):
// the schema is built from them, or checked against them.
type Handler struct {
	Construct    Construct
	Call         Call
	Args, Result reflect.Type
	Fn           any
}

// SDKType is what a Go SDK type stands for in a schema.
type SDKType struct {
	// Elem is the Go type of the value of an Input or Output type
	// (string for pulumi.StringInput, *sitekit.Site for
	// sitekit.SiteOutput); a pointer makes a field optional.
	Elem reflect.Type
	// Builtin is "asset" (pulumi.Asset, pulumi.AssetOrArchive), "archive"
	// or "any" (pulumi.Input, pulumi.Output).
	Builtin string
	// Resource is the struct type of a resource (sitekit.Site for
	// *sitekit.Site): the field is a reference to one.
	Resource reflect.Type
}

// SDK says what Go SDK type t stands for, ok false for a type that is not
// the SDK's; nil until host/gosdk is linked in, which sets it.
var SDK func(t reflect.Type) (SDKType, bool)

// Register adds h for token to p, a *host.Provider. Package host sets it.
var Register func(p any, token string, h Handler) error

// IsEnum reports whether t is an enum as the host reads one: a named type
// with func (T) Values() []host.EnumValue[T]. Package host sets it.
var IsEnum func(t reflect.Type) bool
