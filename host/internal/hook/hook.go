// Package hook lets host/gosdk serve tokens through the host's gRPC server
// with the Go SDK's provider.Construct and provider.Call, without package
// host importing the Go SDK.
package hook

import (
	"context"

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
type Handler struct {
	Construct Construct
	Call      Call
}

// Register adds h for token to p, a *host.Provider. Package host sets it.
var Register func(p any, token string, h Handler) error
