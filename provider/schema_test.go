package provider_test

import (
	"bytes"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost"
	"github.com/polyhost/polyhost/host/schemagen"
	"github.com/polyhost/polyhost/provider"
)

type describedProp struct {
	Description string `yaml:"description"`
}

type describedObject struct {
	Properties map[string]describedProp `yaml:"properties"`
}

// The schema documents every resource, property, function and config
// variable: it is what users of generated SDKs read.
func TestSchemaDocumentsEverything(t *testing.T) {
	t.Parallel()
	var doc struct {
		Config struct {
			Variables map[string]describedProp `yaml:"variables"`
		} `yaml:"config"`
		Resources map[string]struct {
			Description     string                   `yaml:"description"`
			InputProperties map[string]describedProp `yaml:"inputProperties"`
			Properties      map[string]describedProp `yaml:"properties"`
		} `yaml:"resources"`
		Functions map[string]struct {
			Description string          `yaml:"description"`
			Inputs      describedObject `yaml:"inputs"`
			Outputs     describedObject `yaml:"outputs"`
		} `yaml:"functions"`
	}
	if err := yaml.Unmarshal(polyhost.Schema, &doc); err != nil {
		t.Fatal(err)
	}
	check := func(where string, props map[string]describedProp) {
		for name, p := range props {
			if name != "__self__" && p.Description == "" {
				t.Errorf("%s.%s has no description", where, name)
			}
		}
	}
	check("config", doc.Config.Variables)
	for tok, r := range doc.Resources {
		if r.Description == "" {
			t.Errorf("%s has no description", tok)
		}
		check(tok+" input", r.InputProperties)
		check(tok+" output", r.Properties)
	}
	for tok, f := range doc.Functions {
		if f.Description == "" {
			t.Errorf("%s has no description", tok)
		}
		check(tok+" argument", f.Inputs.Properties)
		check(tok+" result", f.Outputs.Properties)
	}
}

// schema.yaml is what go generate makes from the Go types and the overlay:
// regenerating it would change nothing.
func TestSchemaIsGenerated(t *testing.T) {
	t.Parallel()
	src, err := schemagen.Generate(provider.Name, "../schema.overlay.yaml", provider.Registrations("")...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, polyhost.Schema) {
		t.Errorf("schema.yaml is stale: run go generate in the repository's root (diff -u schema.yaml <(go run ./provider/cmd/gen-schema -o /dev/stdout -overlay schema.overlay.yaml))")
	}
}
