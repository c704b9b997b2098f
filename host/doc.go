// Package host turns Go components into a Pulumi resource provider plugin.
//
// A component author describes a package with options and calls [Main]
// from the plugin's main function:
//
//	func main() {
//		host.Main("sitekit",
//			host.WithVersion(version),
//			host.WithSchema(schemaYAML),
//			host.WithComponent("sitekit:index:Site", buildSite),        // Construct
//			host.WithMethod("sitekit:index:Site/pageUrl", pageURL),     // Call
//			host.WithTypedResource("sitekit:index:Bucket", bucket),     // CRUD
//			host.WithFunction("sitekit:index:getObject", getObject),    // Invoke
//			host.WithConfig(openStorage),
//		)
//	}
//
// Every `new Site(...)` of a TypeScript, Python, Go or YAML program arrives
// as a Construct. The host registers the component with the program's
// resource options, decodes and checks its inputs, hands the author a
// [*Component] to register children on, with the program's providers, and
// records the outputs. The component's calls ([Component.Register],
// [Component.Invoke], [Component.Call], [Component.Read]) give what they
// return as values that depend on what they came from, unknown in a
// preview where the engine sent nothing yet, as the SDKs give them; [Apply]
// derives values the way an output's apply does.
//
// Beside this package: host/custom holds what a custom resource's backend
// implements, host/diag the errors that reach a user ([diag.Errorf] names
// a wrong input), host/gosdk serves components written with the Go SDK,
// host/hosttest tests a package on a fake engine, and host/schemagen
// writes a Go-first package's schema.yaml.
//
// # Inputs and outputs
//
// A component's inputs, a method's or function's arguments and the
// configuration are decoded into a struct whose `pulumi:"name"` fields
// receive them; a field tagged `pulumi:"name,optional"` may be missing;
// property.Map takes them raw. Outputs and results are encoded the same
// way.
//
// A field of type property.Value receives the raw value, with its unknown,
// secret and dependency markers. Any other field gets only the plain value:
// a child built from it records no dependency on the resources the input
// came from. In a preview an unknown input leaves it at its zero value; the
// code still runs, so that its children are registered, but the host
// reports every output unknown. A secret arrives as its plaintext, and the
// host cannot follow what is computed from it, so it fails closed: every
// input of every child registered, and every output returned, is marked
// secret, and the engine shows a warning naming the field, once per
// process. Use property.Value, with [Apply], for inputs that may be
// unknown or secret: their markers are kept exactly.
//
// # The schema
//
// Go-first: without [WithSchema], [New] builds the schema from the Go types
// of the registrations: struct tags
// `pulumi:"name,optional,secret,replaceOnChanges,type=T"`, embedded
// structs' fields as their parent's, named structs as object types and
// [EnumValue] lists as enums (token <pkg>:index:<GoName> unless a
// PulumiType() string method says another), [Ref] fields and host/gosdk
// resource types as references. [SchemaFromTypes] writes it. Schema-first:
// with [WithSchema], New checks the Go types against the schema and names
// every difference. [WithoutSchema] opts out of both.
package host
