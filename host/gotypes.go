package host

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/host/schema"
)

// Registrations that carry Go types for a schema built from them (Go-first,
// see gen.go), and the vocabulary of those types that struct tags cannot
// say: enums.

// EnumValue is one value of an enum type: a named string, integer, number
// or boolean type that lists its values with a method
//
//	func (ContentType) Values() []host.EnumValue[ContentType]
//
// Name is the value's name in the SDKs (ContentTypeHtml); Description is
// optional.
type EnumValue[T any] struct {
	Name        string
	Value       T
	Description string
}

func (e EnumValue[T]) enumValue() (string, any, string) { return e.Name, e.Value, e.Description }

// anyEnumValue is every EnumValue, whatever its T.
type anyEnumValue interface{ enumValue() (string, any, string) }

var anyEnumValueType = reflect.TypeFor[anyEnumValue]()

// enumValues returns the values a named type declares with a Values method
// returning []EnumValue[T]; ok is false for a type that declares none.
func enumValues(t reflect.Type) (vals []anyEnumValue, ok bool) {
	if t.Name() == "" || t.Kind() == reflect.Struct || t.Kind() == reflect.Interface {
		return nil, false
	}
	m := reflect.Zero(t).MethodByName("Values")
	if !m.IsValid() {
		return nil, false
	}
	mt := m.Type()
	if mt.NumIn() != 0 || mt.NumOut() != 1 || mt.Out(0).Kind() != reflect.Slice || !mt.Out(0).Elem().Implements(anyEnumValueType) {
		return nil, false
	}
	out := m.Call(nil)[0]
	for i := range out.Len() {
		vals = append(vals, out.Index(i).Interface().(anyEnumValue))
	}
	return vals, true
}

// WithTypedResource serves the custom resource type token with r, as
// [WithResource] does, and says its inputs are a struct In and its state
// (outputs) a struct State, tagged as component arguments are. The host
// checks them against the schema, or builds the schema from them.
func WithTypedResource[In, State any](token string, r Resource) Option {
	return func(p *Provider) error {
		if err := WithResource(token, r)(p); err != nil {
			return err
		}
		p.shapes[token] = shapeOf[In, State](r)
		return nil
	}
}

// WithConfig runs fn when the engine configures the provider, with the
// configuration decoded into C, a struct whose `pulumi:"name"` fields are
// the package's configuration variables (and its provider's inputs). Use a
// property.Value field for a value that may be unknown in a preview.
func WithConfig[C any](fn func(ctx context.Context, config C) error) Option {
	return func(p *Provider) error {
		t := reflect.TypeFor[C]()
		if _, isStruct, err := typed.Fields(t); err != nil || !isStruct {
			return fmt.Errorf("configuration: %s must be a struct with `pulumi` tags (%v)", t, err)
		}
		p.configShape = &shape{args: t, fn: fn}
		p.onConfigure = func(ctx context.Context, config property.Map) error {
			var c C
			if _, err := decodeArgs(config, &c); err != nil {
				return err
			}
			return fn(ctx, c)
		}
		return nil
	}
}

// WithoutSchema says the provider has none: GetSchema serves an empty one
// and nothing is checked against a schema. Without it, and without
// [WithSchema], the host builds the schema from the Go types.
func WithoutSchema() Option {
	return func(p *Provider) error {
		p.noSchema = true
		return nil
	}
}

// typeExpr is a tag's type=T, as a schema property: string, integer,
// number, boolean, any, json, asset, archive, []T, map[string]T, a token of
// a resource or type of this package, or a $ref. Tokens are looked up by
// resolve, which says whether one is a resource ("resource") or a type
// ("type"), or returns "" for neither.
func typeExpr(expr string, resolve func(token string) string) (schema.Property, error) {
	switch {
	case strings.HasPrefix(expr, "[]"):
		items, err := typeExpr(expr[2:], resolve)
		return schema.Property{Type: "array", Items: &items}, err
	case strings.HasPrefix(expr, "map[string]"):
		elem, err := typeExpr(expr[len("map[string]"):], resolve)
		return schema.Property{Type: "object", AdditionalProperties: &elem}, err
	case expr == "string" || expr == "integer" || expr == "number" || expr == "boolean":
		return schema.Property{Type: expr}, nil
	case builtinRefs[expr] != "":
		return schema.Property{Ref: builtinRefs[expr]}, nil
	case strings.Contains(expr, "#"):
		return schema.Property{Ref: expr}, nil
	case tokenLike.MatchString(expr):
		switch resolve(expr) {
		case "resource":
			return schema.Property{Ref: "#/resources/" + expr}, nil
		case "type":
			return schema.Property{Ref: "#/types/" + expr}, nil
		}
		return schema.Property{}, fmt.Errorf("type=%s names no resource or type of this package (one of another package needs its $ref: /pkg/vX.Y.Z/schema.json#/resources/<token>)", expr)
	}
	return schema.Property{}, fmt.Errorf("type=%s: unknown type %q (want string, integer, number, boolean, any, json, asset, archive, []T, map[string]T, a token or a $ref)", expr, expr)
}

var (
	builtinRefs = map[string]string{"any": "pulumi.json#/Any", "json": "pulumi.json#/Json",
		"asset": "pulumi.json#/Asset", "archive": "pulumi.json#/Archive"}
	tokenLike = regexp.MustCompile(`^[^:\s]+:[^:\s]*:[^:\s]+$`)
)
