// Package schemagen writes the schema.yaml of a Go-first package: the
// schema [host.SchemaFromTypes] builds from the Go types of its
// registrations, with descriptions from their doc comments (which
// reflection cannot see, so they are read from the source) and an overlay
// merged in for what Go cannot say. Types, fields (those of embedded
// structs too), components, methods and functions are described by their
// doc comments, enum values by those of the constants that declare them;
// an Annotate method's Describe and host.WithDescription win over them.
//
// A package's generate command is one line, run by go generate:
//
//	// cmd/gen-schema/main.go
//	func main() { schemagen.Main("greet", greet.Options()...) }
//
//	// schema.go
//	//go:generate go run ./cmd/gen-schema -o schema.yaml -overlay schema.overlay.yaml
//
// [Generate] returns the same bytes, for a test that fails when
// schema.yaml is stale. Only generate commands and tests import this
// package; the plugin does not.
package schemagen
