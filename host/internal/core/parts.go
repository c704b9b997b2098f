package core

import (
	"encoding/json"
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/host/schema"
)

// AddSchemaPart adds part, a package schema (JSON or YAML) whose config
// variables, provider properties, resources, functions and types join the
// package's own at Finish, whether those come from the Go types or from
// WithSchema: what a backend declares at run time (a Terraform provider's
// resources). A token or property both declare is an error.
func (p *Provider) AddSchemaPart(part []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(part, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("a schema part is not a mapping: %v", err)
	}
	p.parts = append(p.parts, doc.Content[0])
	return nil
}

// withParts is the package schema doc with p's parts joined, loaded.
func (p *Provider) withParts(doc *yaml.Node) (*schema.Package, error) {
	if err := joinParts(doc, p.parts); err != nil {
		return nil, err
	}
	var v any // YAML's own scalars (~, 0x10, .inf) as values, then JSON
	if err := doc.Decode(&v); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return schema.LoadJSON(js)
}

// partTokens are the resource and function tokens parts declare, by
// section: the schema built from the Go types leaves them to the parts.
func partTokens(parts []*yaml.Node) map[string]map[string]bool {
	out := map[string]map[string]bool{"resources": {}, "functions": {}}
	for _, part := range parts {
		for section, toks := range out {
			if m := lookup(part, section); m != nil {
				for i := 0; i < len(m.Content); i += 2 {
					toks[m.Content[i].Value] = true
				}
			}
		}
	}
	return out
}

// partSections are how each section of a part joins: a mapping of tokens
// or names, each declared once, or a list added to; in config and
// provider, only the keys listed (their description is the package's).
var partSections = map[string][]string{
	"config":    {"variables", "defaults"},
	"provider":  {"inputProperties", "properties", "requiredInputs", "required"},
	"resources": nil, "functions": nil, "types": nil,
}

// joinParts joins each part's sections into doc, a package schema.
func joinParts(doc *yaml.Node, parts []*yaml.Node) error {
	for _, top := range parts {
		for i := 0; i+1 < len(top.Content); i += 2 {
			key, val := top.Content[i].Value, top.Content[i+1]
			subs, ok := partSections[key]
			switch {
			case key == "name" || key == "version" || key == "meta":
				continue // the package's own
			case !ok:
				return fmt.Errorf("schema part: section %q cannot join a package's schema", key)
			case subs == nil:
				if err := joinMapping(section(doc, key), val, key); err != nil {
					return err
				}
			default:
				into := section(doc, key)
				for j := 0; j+1 < len(val.Content); j += 2 {
					sub, v := val.Content[j].Value, val.Content[j+1]
					if !slices.Contains(subs, sub) {
						continue // a description: the package's own
					}
					if v.Kind == yaml.SequenceNode {
						list := child(into, sub, yaml.SequenceNode)
						list.Content = append(list.Content, v.Content...)
						continue
					}
					if err := joinMapping(child(into, sub, yaml.MappingNode), v, key+"."+sub); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// joinMapping adds from's entries to into, refusing a key both have.
func joinMapping(into, from *yaml.Node, where string) error {
	if from.Kind != yaml.MappingNode {
		return fmt.Errorf("schema part: %s is not a mapping", where)
	}
	for i := 0; i+1 < len(from.Content); i += 2 {
		if lookup(into, from.Content[i].Value) != nil {
			return fmt.Errorf("schema part: %s %q is declared twice", where, from.Content[i].Value)
		}
		into.Content = append(into.Content, from.Content[i], from.Content[i+1])
	}
	return nil
}

// section is doc's mapping under key, made if missing.
func section(doc *yaml.Node, key string) *yaml.Node { return child(doc, key, yaml.MappingNode) }

// child is m's value under key, made of kind if missing.
func child(m *yaml.Node, key string, kind yaml.Kind) *yaml.Node {
	if v := lookup(m, key); v != nil {
		return v
	}
	v := &yaml.Node{Kind: kind}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return v
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
