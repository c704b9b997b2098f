package core

import (
	"context"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/host/custom"
)

type nopResource struct{}

func (nopResource) Create(context.Context, custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: "x"}, nil
}

const clockPart = `{"name": "kit", "version": "9.9.9",
 "config": {"variables": {"zone": {"type": "string"}}},
 "provider": {"inputProperties": {"zone": {"type": "string"}}, "properties": {"zone": {"type": "string"}}},
 "resources": {"kit:index:Clock": {"inputProperties": {"tick": {"$ref": "#/types/kit:index:Tick"}},
   "properties": {"tick": {"$ref": "#/types/kit:index:Tick"}, "at": {"type": "string"}}, "required": ["at"]}},
 "types": {"kit:index:Tick": {"type": "object", "properties": {"every": {"type": "number"}}}},
 "functions": {"kit:index:getClock": {"inputs": {"properties": {"at": {"type": "string"}}}, "outputs": {"properties": {"at": {"type": "string"}}}}}}`

// A backend's schema part joins a schema built from the Go types and one
// given in YAML alike: its config, provider properties, resources, types
// and functions are the package's, the package's own name and version
// kept.
func TestSchemaPartsJoin(t *testing.T) {
	t.Parallel()
	given := []byte("name: kit\nversion: 1.0.0\nconfig:\n  variables:\n    root: {type: string, default: ~}\nresources:\n  kit:index:Own:\n    properties: {}\n    inputProperties: {}\n")
	for name, schemaSrc := range map[string][]byte{"from types": nil, "given": given} {
		p := New("kit")
		if schemaSrc != nil {
			if err := p.SetSchema(schemaSrc); err != nil {
				t.Fatal(err)
			}
			if err := p.AddResource("kit:index:Own", nopResource{}, NoSignature); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.AddResource("kit:index:Clock", nopResource{}, NoSignature); err != nil {
			t.Fatal(err)
		}
		if err := p.AddSchemaPart([]byte(clockPart)); err != nil {
			t.Fatal(err)
		}
		if err := p.Finish(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := p.schema.Resource("kit:index:Clock"); !ok {
			t.Errorf("%s: no kit:index:Clock in %s", name, p.schema.JSON())
		}
		if _, ok := p.schema.Function("kit:index:getClock"); !ok {
			t.Errorf("%s: no kit:index:getClock", name)
		}
		js := string(p.schema.JSON())
		for _, want := range []string{`"kit:index:Tick"`, `"zone"`} {
			if !strings.Contains(js, want) {
				t.Errorf("%s: the schema lacks %s: %s", name, want, js)
			}
		}
		if p.schema.Version == "9.9.9" {
			t.Errorf("%s: the part's version replaced the package's", name)
		}
	}
}

// A token or property the package and a part both declare, or a section
// that cannot join, is refused by name.
func TestSchemaPartsConflict(t *testing.T) {
	t.Parallel()
	for part, want := range map[string]string{
		clockPart: `resources "kit:index:Clock" is declared twice`,
		`{"config": {"variables": {"root": {"type": "string"}}}}`: `config.variables "root" is declared twice`,
		`{"language": {"go": {}}}`:                                `section "language" cannot join`,
	} {
		p := New("kit")
		if err := p.SetSchema([]byte("name: kit\nconfig:\n  variables:\n    root: {type: string}\nresources:\n  kit:index:Clock:\n    properties: {}\n    inputProperties: {}\n")); err != nil {
			t.Fatal(err)
		}
		if err := p.AddResource("kit:index:Clock", nopResource{}, NoSignature); err != nil {
			t.Fatal(err)
		}
		if err := p.AddSchemaPart([]byte(part)); err != nil {
			t.Fatal(err)
		}
		if err := p.Finish(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("part %.40s: %v, want %q", part, err, want)
		}
	}
	if err := New("kit").AddSchemaPart([]byte("[1, 2]")); err == nil {
		t.Error("a part that is a list was taken")
	}
}

// Closing the plugin's base provider closes the package a Parameterize
// chose, and what that one's backends started: the ready Terraform
// plugin's provider processes outlived hosttest servers before.
func TestCloseReachesTheParameterizedPackage(t *testing.T) {
	t.Parallel()
	base := New("base")
	var closed bool
	base.SetParameterize(func(context.Context, ParameterizeRequest) (*Provider, []byte, error) {
		next := New("chosen")
		next.AddCloser(func() error { closed = true; return nil })
		if err := next.Finish(); err != nil {
			return nil, nil, err
		}
		return next, []byte("v"), nil
	})
	if err := base.Finish(); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlugin(base).Parameterize(context.Background(), ParameterizeRequest{Args: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if err := base.Close(); err != nil || !closed {
		t.Errorf("base.Close() = %v; the chosen package closed: %v", err, closed)
	}
}
