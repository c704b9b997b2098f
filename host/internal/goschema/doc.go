// Package goschema is the package schema from Go types (Go-first): built
// from the Go types of a package's registrations (Package.Build), or
// compared with a schema given (Package.Check). A struct field is a
// property (its tag says the name and options, its Go type the schema
// type), a named struct is an object type and a named scalar with a
// Values method an enum. It knows nothing of serving requests.
package goschema
