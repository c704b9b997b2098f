// Package shelf is a test package for two options a component's child can
// take: a package reference and hidden diffs. Its plugin is parameterized
// (host.WithParameterize): parameterized with a kind, such as "books", it
// serves the package of that name, whose one resource is Item. Its Shelf
// component registers that package (RegisterPackage) and an Item of it by
// the package's reference, and a Tag whose stamp's diffs the CLI hides.
// tests/testdata/real_compose_params runs it under the real CLI.
package shelf
