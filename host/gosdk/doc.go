// Package gosdk serves components and methods written with the Pulumi Go
// SDK: their code gets a *pulumi.Context, so children can come from any
// package's generated Go SDK (s3.NewBucketV2, sitekit.NewSite, ...), with
// functions (aws.GetCallerIdentity), resource options and outputs as the Go
// SDK has them. It is for component authors; start with [Component] and
// [Method], options of host.New and host.Main beside host.WithComponent.
//
// The schema is built from the Go types as for the raw path (or checked
// against them): an Input or Output field stands for its value's type
// (pulumi.StringInput a string, pulumi.StringMapInput a map of strings), a
// Ptr one is optional, a struct of Inputs is an object type, a resource
// type (*Site, SiteOutput) a reference to the component registered with
// that type or named by host.WithResourceRef, an enum type with its Input
// and Output (the generated SDKs' shape) that declares its values with
// Values() []host.EnumValue[T] an enum, and a method's single Output its
// "res". Arguments are Input interfaces or plain Go types: a concrete
// Input (pulumi.String) cannot hold the Output the SDK sets, and is
// refused.
//
// The host checks inputs and outputs against the schema and turns a
// panicking call into an error, as for the raw path; the SDK's
// provider.Construct and provider.Call run the code and record its outputs
// with their secrets, unknowns and dependencies. The raw path
// (host.WithComponent and host.Component.Register) stays the fast one: the
// SDK adds its program model to every registration and links about 15 MB
// more into the plugin (docs/performance.md measures both). Only plugins
// that import this package pay for it.
//
// Arguments keep secrets only in pulumi.Input fields (pulumi.StringInput,
// pulumi.StringMapInput, ...). A secret input that reaches a plain Go field
// fails the call, naming the field: the SDK would let it reach state as
// plaintext. A panic inside an Apply runs on the SDK's goroutines and stops
// the plugin, as in any Go SDK program.
//
// What the component registers, invokes or calls carries no
// parentStackTraceHandle: the Go SDK (v3.263) sends its own Go stack trace
// but never the handle of the ConstructRequest or CallRequest, and its
// public API has no way to add it (pulumi.RunInfo's monitor wrapper is
// unexported).
package gosdk
