// Package echo is a test provider plugin that serves whatever package
// schema it is given: each component registers a child Leaf (when the
// schema declares one) and returns its outputs from its inputs of the same
// name, or made up from their types; each custom resource gets an ID with
// a random part, so a test can tell a resource kept from one created
// anew; methods and functions return their results the same way. The
// reality test of the compat check (tests/breakage) runs the old and the new
// schema of a change through it.
package echo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/monitorclient"
)

// EnvSchema names the schema file the plugin serves.
const EnvSchema = "ECHO_SCHEMA"

// Options serve the package schema src.
func Options(src []byte) (name string, opts []host.Option, err error) {
	s, err := schema.Load(src)
	if err != nil {
		return "", nil, err
	}
	opts = []host.Option{host.WithSchema(src)}
	leaf := s.Name + ":index:Leaf"
	if r, ok := s.Resource(leaf); !ok || r.IsComponent {
		leaf = ""
	}
	methods := map[string]bool{}
	for tok, r := range s.Resources {
		if !r.IsComponent {
			opts = append(opts, host.WithResource(tok, echoResource{s: s, obj: r.Object}))
			continue
		}
		opts = append(opts, host.WithComponent(tok, component(s, r.Object, leaf)))
		for _, fn := range r.Methods {
			methods[fn] = true
			opts = append(opts, host.WithMethod(fn, func(ctx context.Context, self *host.Component, args property.Map) (property.Map, error) {
				return results(s, fn, args), nil
			}))
		}
	}
	for tok := range s.Functions {
		if !methods[tok] {
			opts = append(opts, host.WithFunction(tok, func(ctx context.Context, args property.Map) (property.Map, error) {
				return results(s, tok, args), nil
			}))
		}
	}
	return s.Name, opts, nil
}

func component(s *schema.Package, outputs schema.Object, leaf string) host.ComponentFunc[property.Map, property.Map] {
	return func(ctx context.Context, c *host.Component, args property.Map) (property.Map, error) {
		if leaf != "" {
			_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
				Type: leaf, Name: c.Name() + "-leaf", Custom: true,
				Inputs: property.NewMap(map[string]property.Value{"text": property.New(c.Name())}),
			})
			if err != nil {
				return property.Map{}, err
			}
		}
		return fill(s, outputs, args), nil
	}
}

func results(s *schema.Package, tok string, args property.Map) property.Map {
	fn, _ := s.Function(tok)
	if fn.Outputs == nil {
		return property.Map{}
	}
	return fill(s, *fn.Outputs, args)
}

// fill gives every property of obj a value: the one of the same name in
// in, or one made up from its type.
func fill(s *schema.Package, obj schema.Object, in property.Map) property.Map {
	out := map[string]property.Value{}
	for name, p := range obj.Properties {
		if v, ok := in.GetOk(name); ok && !v.IsNull() {
			out[name] = v
			continue
		}
		out[name] = madeUp(s, name, p)
	}
	return property.NewMap(out)
}

func madeUp(s *schema.Package, name string, p schema.Property) property.Value {
	if p.Ref != "" {
		target, err := s.RefTarget(p.Ref)
		if err == nil && target.Kind == "type" {
			t := s.Types[target.Token]
			if len(t.Enum) > 0 {
				if v, err := property.Any(t.Enum[0].Value); err == nil {
					return v
				}
			}
			return property.New(fill(s, t.Object, property.Map{}))
		}
		return property.New(name)
	}
	switch p.Type {
	case "integer", "number":
		return property.New(float64(len(name)))
	case "boolean":
		return property.New(true)
	case "array":
		return property.New(property.NewArray(nil))
	case "object":
		return property.New(property.NewMap(nil))
	}
	return property.New(name) // a string, or a union (host/schema reads no oneOf)
}

// echoResource is every custom resource: its outputs are filled from its inputs,
// and its ID has a random part.
type echoResource struct {
	s   *schema.Package
	obj schema.Object
}

func (r echoResource) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return custom.CreateResponse{}, err
	}
	id := fmt.Sprintf("%s-%s", strings.ToLower(req.URN.Name()), hex.EncodeToString(b))
	return custom.CreateResponse{ID: resource.ID(id), Outputs: fill(r.s, r.obj, req.Inputs)}, nil
}

func (r echoResource) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (r echoResource) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{Outputs: fill(r.s, r.obj, req.Inputs)}, nil
}

func (r echoResource) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}
