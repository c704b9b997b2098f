// Package monitorclient is a typed client for the Pulumi engine's
// ResourceMonitor and Engine gRPC services, for code that runs inside a
// provider's Construct or Call (the host library).
//
// Start with [Pool]: [Pool.Get] returns one shared [Client] per monitor
// address, dialled and feature-negotiated once. Every RPC has the shape
// Method(ctx, Request) (Response, error); values are [property.Map] with
// secrets, unknowns and dependencies as markers, so no pulumirpc type appears
// in this package's API. Dependencies found on input values are also sent as
// propertyDependencies/dependencies, the way the Go SDK does. RegisterResource,
// the call a component makes once per child, writes its inputs and reads
// its outputs straight between property.Map and protobuf bytes (codec.go),
// without structpb trees in between.
//
// Logging goes through the Engine service, whose address comes from the
// plugin's command line: see [DialEngine].
//
// [property.Map]: https://pkg.go.dev/github.com/pulumi/pulumi/sdk/v3/go/property#Map
package monitorclient
