// Package host turns Go components into a Pulumi resource provider plugin:
//
//	func main() {
//		host.Main("sitekit",
//			host.WithVersion(version),
//			host.WithComponent("sitekit:index:Site", buildSite),     // Construct
//			host.WithMethod("sitekit:index:Site/pageUrl", pageURL),  // Call
//			host.WithTypedResource("sitekit:index:Bucket", bucket),  // CRUD
//			host.WithFunction("sitekit:index:getObject", getObject), // Invoke
//			host.WithConfig(openStorage),
//		)
//	}
//
// A program's `new Site(...)` arrives as a Construct: the host registers the
// component with the program's options, hands the author a [*Component] to
// register children on, and records the outputs. What its calls return
// depends on what it came from, unknown in a preview where the engine sent
// nothing yet, as in the SDKs; [Apply] derives values as an output's apply
// does. Beside this package: host/custom (custom resources), host/diag
// (errors a user sees), host/gosdk (components written with the Go SDK),
// host/hosttest (a fake engine), host/schemagen (a schema from Go types).
//
// Inputs, arguments and configuration are decoded into a struct whose
// `pulumi:"name"` fields (`pulumi:"name,optional"` may be missing) receive
// them, or a property.Map; outputs and results are encoded the same way. A
// property.Value field keeps the value's unknown, secret and dependency
// markers; any other field gets the plain value, its zero while unknown. A
// secret that reaches a plain field cannot be followed: the host marks
// every child input and every output secret, and the engine warns, naming
// the field.
//
// Without [WithSchema], [New] builds the schema from the Go types (tags
// `pulumi:"name,optional,secret,replaceOnChanges,type=T"`, named structs as
// object types, [EnumValue] lists as enums, [Ref] fields as references);
// with it, New checks the Go types against it.
package host
