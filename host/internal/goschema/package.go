package goschema

import "reflect"

// Package is what a schema is built from and checked against: a
// package's registrations and the Go types they carry.
type Package struct {
	Name, Version string
	Descriptions  map[string]string    // WithDescription, by token
	Config        *Signature           // WithConfig's type; nil for none
	Signatures    map[string]Signature // of each component, method, function and typed resource
	Components    map[string]bool      // component tokens
	Resources     map[string]any       // custom resources' backends, by token
	Functions     map[string]bool      // function tokens, methods aside
	Methods       []string             // method tokens, sorted
	RefTypes      map[reflect.Type]string
	SDK           SDKTypes // what Go SDK types stand for; nil for a package without Go SDK registrations
	// Declared are the resource and function tokens a schema part
	// declares, by section ("resources", "functions"): left to it.
	Declared map[string]map[string]bool
}

func (p *Package) providerToken() string { return "pulumi:providers:" + p.Name }
