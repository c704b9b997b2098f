// Package shelf is a test package for two options a component's child can
// take: a package reference and hidden diffs. Its plugin is parameterized
// (host.WithParameterize): parameterized with a kind, such as "books", it
// serves the package of that name, whose one resource is Item. Its Shelf
// component registers that package (RegisterPackage) and an Item of it by
// the package's reference, and a Tag whose stamp's diffs the CLI hides.
// tests/testdata/real_compose_params runs it under the real CLI.
//
// Its Hook component takes, returns and hands back from its switch method
// references to another package's resource whose token has a module:
// tests/portal's Gate, portal:index/gate:Gate, which the schema writes
// /portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate.
// tests/testdata/real_ref_module_token runs it on both engines.
package shelf
