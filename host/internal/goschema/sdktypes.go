package goschema

import "reflect"

// SDKType is what a Go SDK type stands for in a schema.
type SDKType struct {
	// Elem is the Go type of the value of an Input or Output type
	// (string for pulumi.StringInput, *sitekit.Site for
	// sitekit.SiteOutput); a pointer makes a field optional.
	Elem reflect.Type
	// Builtin is "asset" (pulumi.Asset, pulumi.AssetOrArchive), "archive"
	// or "any" (pulumi.Input, pulumi.Output).
	Builtin string
	// Resource is the struct type of a resource (sitekit.Site for
	// *sitekit.Site): the field is a reference to one.
	Resource reflect.Type
}

// SDKTypes says what Go SDK type t stands for, ok false for a type that is
// not the SDK's (host/gosdk's, for a package with Go SDK registrations).
type SDKTypes func(t reflect.Type) (SDKType, bool)
