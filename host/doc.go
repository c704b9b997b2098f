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
//			host.WithResource("sitekit:index:Bucket", bucketBackend),   // CRUD
//			host.WithFunction("sitekit:index:getObject", getObject),    // Invoke
//			host.WithConfig(openStorage),
//		)
//	}
//
// The engine launches the binary and every `new Site(...)` in a TypeScript,
// Python, Go or YAML program arrives as a Construct call. The host registers
// the component itself with the program's resource options, decodes and
// checks its inputs, hands the author a [*Component] to register children
// on ([Component.Register], [Component.Group] for concurrency) with the
// program's options ([Component.Options], providers parsed), and records
// the outputs. A child's outputs and ID are read as values that depend on
// it ([monitorclient.RegisterResourceResponse.Output] and IDValue, unknown
// in a preview where the engine sent none). [Apply] derives values the way
// an output's apply does ([ApplyErr] when that can fail);
// [Component.Resolve] reads a referenced resource through the engine;
// [Component.Invoke] calls any package's function, [Component.Call] a
// method of another resource and [Component.Read] reads an existing one, with unknown results in a preview when an
// argument is unknown, as the SDKs give them. [Component.RegisterPackage]
// registers a parameterized package for children that name it
// (RegisterResourceRequest.PackageRef). What a component registers,
// invokes, calls or reads carries the program's stack trace handle
// (parentStackTraceHandle); a component on host/gosdk does not, since the
// Go SDK (v3.263) neither sends it nor lets a caller add it.
//
// A plugin can itself be parameterized, as a bridged provider is: with
// [WithParameterize], the engine's Parameterize (for a package a program
// registered, or `pulumi package add <plugin> <args>`) has the author's
// function build the [Provider] of the package asked for, which then
// serves that process, its schema recording the plugin and the parameter.
//
// The package schema comes from one of two places. Go-first: without
// [WithSchema], [New] builds it from the Go types of the registrations (struct
// tags `pulumi:"name,optional,secret,replaceOnChanges,type=T"`, embedded
// structs' fields as their parent's, named structs as object types and
// [EnumValue] lists as enums, of token <pkg>:index:<GoName> unless a
// PulumiType() string method says another, [Ref] fields and host/gosdk
// resource types as references to the resource of that Go type or the one
// [WithResourceRef] names, host/gosdk's Input and Output types as their
// values' types; [WithTypedResource] and [WithConfig] give custom
// resources and the configuration their types), and [SchemaFromTypes]
// writes it; package schemagen adds the doc comments as descriptions and
// an overlay, for a schema.yaml written by go generate. Schema-first: with [WithSchema], New checks the Go types
// against the schema and names every difference. [WithoutSchema] opts out
// of both.
//
// A custom resource's backend ([custom.Resource]) finds the provider's
// configuration in every request ([custom.ResourceInfo].Config), and in Check the
// program's autonaming configuration ([custom.CheckRequest].Autonaming). Strings
// that are not valid UTF-8 travel as byte strings where the engine reads
// them, and a function learns whether it runs in a preview with
// [InPreview].
//
// [Main] runs the plugin on one Go thread at a time unless told otherwise
// ([WithMaxProcs]): a provider mostly waits on the engine.
//
// Bad input is reported with [diag.Errorf] or comes back from the schema checks
// as a [diag.InputError]; other failures are [diag.StepError]s naming the resource
// and the step.
package host
