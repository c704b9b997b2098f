package host

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/monitorclient"
)

// shape is the Go argument and result types an author serves a token with,
// and what serves it (a function, or a Resource), whose doc comment
// describes the token in a schema built from the types.
type shape struct {
	args, result reflect.Type
	fn           any
}

func shapeOf[A, R any](fn any) shape {
	return shape{args: reflect.TypeFor[A](), result: reflect.TypeFor[R](), fn: fn}
}

// checkShapes compares the struct tags and field types of every component,
// method and function with the schema, so that a misspelt tag, a missing
// ",optional" or a field of the wrong type stops the provider at start-up
// rather than failing the user's program with an error about inputs they
// passed correctly.
func (p *Provider) checkShapes() error {
	for _, tok := range slices.Sorted(maps.Keys(p.shapes)) {
		if err := p.checkShape(tok, p.shapes[tok]); err != nil {
			return fmt.Errorf("%s: %w", tok, err)
		}
	}
	return nil
}

func (p *Provider) checkShape(tok string, sh shape) error {
	var ins, outs *schema.Object
	if r, ok := p.schema.Resource(tok); ok {
		in := r.Inputs()
		ins, outs = &in, &r.Object
	} else if fn, ok := p.schema.Function(tok); ok {
		ins, outs = fn.Inputs, fn.Outputs
	} else {
		return fmt.Errorf("the schema does not declare it")
	}
	argsT, resultT := elem(sh.args), elem(sh.result) // for messages: no pointer's *
	args, isStruct, err := typed.Fields(sh.args)
	if err != nil {
		return err
	}
	if !isStruct && sh.args != reflect.TypeFor[property.Map]() {
		return fmt.Errorf("the arguments must be a struct or property.Map, not %s", sh.args)
	}
	for _, f := range args {
		switch {
		case ins == nil || !hasProperty(*ins, f.Name):
			return fmt.Errorf("field %s.%s reads input %q, which the schema does not declare", argsT, f.GoName, f.Name)
		case !f.Optional && !slices.Contains(ins.Required, f.Name):
			return fmt.Errorf("input %q is optional in the schema, so field %s.%s needs the tag `pulumi:\"%s,optional\"`",
				f.Name, argsT, f.GoName, f.Name)
		}
		if typ := p.schema.TypeOf(ins.Properties[f.Name]); !fits(typ, f.Type) {
			return fmt.Errorf("field %s.%s is %s, but input %q is %s %s in the schema", argsT, f.GoName, f.Type, f.Name, typed.Article(typ), typ)
		}
	}
	results, _, err := typed.Fields(sh.result)
	if err != nil {
		return err
	}
	for _, f := range results {
		if outs == nil || !hasProperty(*outs, f.Name) {
			return fmt.Errorf("field %s.%s sets output %q, which the schema does not declare", resultT, f.GoName, f.Name)
		}
		if typ := p.schema.TypeOf(outs.Properties[f.Name]); !fits(typ, f.Type) {
			return fmt.Errorf("field %s.%s is %s, but output %q is %s %s in the schema", resultT, f.GoName, f.Type, f.Name, typed.Article(typ), typ)
		}
	}
	return nil
}

func hasProperty(obj schema.Object, name string) bool {
	_, ok := obj.Properties[name]
	return ok
}

// fits reports whether a field of Go type t can hold values of the schema
// type typ. Only the outer type is compared; a property.Value or an
// interface field holds anything, and so does any field for a $ref that is
// not to one of the package's own types (typ ""): a resource, an asset.
func fits(typ string, t reflect.Type) bool {
	t = elem(t)
	if t == reflect.TypeFor[property.Value]() || t.Kind() == reflect.Interface {
		return true
	}
	switch k := t.Kind(); typ {
	case "string":
		return k == reflect.String
	case "integer":
		return reflect.Int <= k && k <= reflect.Uint64 || k == reflect.Float32 || k == reflect.Float64
	case "number":
		return k == reflect.Float32 || k == reflect.Float64
	case "boolean":
		return k == reflect.Bool
	case "array":
		return k == reflect.Slice
	case "object":
		return k == reflect.Map || k == reflect.Struct // property.Map too
	}
	return true
}

// elem is t without pointers.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
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
