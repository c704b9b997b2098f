// Package wire converts property values to and from their protobuf form on
// the Pulumi wire (google.protobuf.Struct with signature objects for
// secrets, resource references, output values, assets and archives).
//
// It gives the same results as the SDK's plugin.MarshalProperties and
// plugin.UnmarshalProperties followed by the property package's conversions
// (a differential fuzz test checks this), but converts directly, and does
// not link the plugin package, which brings the CLI's workspace code (git,
// terminal UI, JSON schema) into every provider binary. The host and
// monitorclient use it; start with MarshalMap and UnmarshalMap.
package wire
