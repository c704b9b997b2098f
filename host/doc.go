// Package host turns Go components into a Pulumi resource provider plugin.
//
// A component author describes a package with [New] and options such as
// [WithSchema], [WithComponent] and [WithResource], then calls [Main] from
// the plugin's main function:
//
//	func main() {
//		host.Main("sitekit",
//			host.WithVersion(version),
//			host.WithSchema(schemaYAML),
//			host.WithComponent("sitekit:index:Site", buildSite),
//		)
//	}
//
// The engine launches the binary and every `new Site(...)` in a TypeScript,
// Python, Go or YAML program arrives as a Construct call. The host registers
// the component itself, hands the author a [*Component] to register children
// on, and reports the outputs back. Files named grpc*.go are the only ones
// that speak the wire protocol; everything else works on property values.
package host
