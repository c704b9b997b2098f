package core

import (
	"fmt"

	"github.com/polyhost/polyhost/host/internal/goschema"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/monitorclient"
)

// The schema from the Go types of the registrations is package goschema's;
// here the core hands it the registrations, and checks children against
// the schema.

// NewForSchema is a provider built only to write the schema of its Go
// types (host.SchemaFromTypes): a schema given with WithSchema is ignored.
func NewForSchema(name string) *Provider {
	p := New(name)
	p.generating = true
	return p
}

// SchemaYAML is the schema built from the Go types of p's registrations,
// in YAML; docs, which may be nil, supplies descriptions.
func (p *Provider) SchemaYAML(docs goschema.Docs) ([]byte, error) {
	out, err := p.goTypes().YAML(docs)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", p.name, err)
	}
	return out, nil
}

// goTypes are p's registrations as goschema reads them.
func (p *Provider) goTypes() *goschema.Package {
	resources := make(map[string]any, len(p.resources))
	for tok, r := range p.resources {
		resources[tok] = r
	}
	functions := make(map[string]bool, len(p.functions))
	for tok := range p.functions {
		functions[tok] = true
	}
	return &goschema.Package{
		Name:         p.name,
		Version:      p.version,
		Descriptions: p.descriptions,
		Config:       p.configSignature,
		Signatures:   p.signatures,
		Components:   p.componentTokens(),
		Resources:    resources,
		Functions:    functions,
		Methods:      p.methodTokens(),
		RefTypes:     p.refTypes,
		SDK:          p.sdkTypes,
		Declared:     partTokens(p.parts),
	}
}

// loadFromTypes is the schema of a provider given none: its Go types'.
func (p *Provider) loadFromTypes() (*schema.Package, error) {
	if len(p.parts) > 0 {
		doc, err := p.goTypes().Build(nil)
		if err != nil {
			return nil, err
		}
		return p.withParts(doc)
	}
	js, err := p.goTypes().JSON()
	if err != nil {
		return nil, err
	}
	s, err := schema.LoadJSON(js)
	if err != nil {
		return nil, fmt.Errorf("the schema built from the Go types: %w", err)
	}
	return s, nil
}

// checkGoTypes compares the Go types of the registrations and the
// configuration with the schema (goschema.Package.Check).
func (p *Provider) checkGoTypes() error {
	var config *schema.Object
	if spec, ok := p.configSpec(); ok {
		config = &spec
	}
	return p.goTypes().Check(p.schema, config)
}

// checkChildKind refuses a child of this package's types that its schema
// does not declare, or whose Custom flag contradicts the schema, such as a
// custom resource registered without Custom, which the engine would record
// as an empty component.
func (p *Provider) checkChildKind(req monitorclient.RegisterResourceRequest) error {
	if p.schema == nil || req.Remote {
		return nil
	}
	r, ok := p.schema.Resource(req.Type)
	switch {
	case !ok && packageOf(req.Type) == p.name:
		return fmt.Errorf("the schema of package %s does not declare %s", p.name, req.Type)
	case !ok:
		return nil
	case !r.IsComponent && !req.Custom:
		return fmt.Errorf("%s is a custom resource in the schema: set Custom", req.Type)
	case r.IsComponent && req.Custom:
		return fmt.Errorf("%s is a component in the schema: leave Custom unset", req.Type)
	}
	return nil
}
