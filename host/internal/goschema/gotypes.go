package goschema

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/polyhost/polyhost/host/schema"
)

// Registrations that carry Go types for a schema built from them (Go-first,
// see gen.go), and the vocabulary of those types that struct tags cannot
// say: enums.

// EnumValue is one value of an enum type (host.EnumValue): a named string,
// integer, number or boolean type that lists its values with a method
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
			return schema.Property{Ref: localRef("resources", expr)}, nil
		case "type":
			return schema.Property{Ref: localRef("types", expr)}, nil
		}
		return schema.Property{}, fmt.Errorf("type=%s names no resource or type of this package (one of another package needs its $ref: /pkg/vX.Y.Z/schema.json#/resources/<token>)", expr)
	}
	return schema.Property{}, fmt.Errorf("type=%s: unknown type %q (want string, integer, number, boolean, any, json, asset, archive, assetOrArchive, []T, map[string]T, a token or a $ref)", expr, expr)
}

var (
	builtinRefs = map[string]string{"any": "pulumi.json#/Any", "json": "pulumi.json#/Json",
		"asset": "pulumi.json#/Asset", "archive": "pulumi.json#/Archive",
		// pulumi.json#/Asset is an asset or an archive: this name says so.
		"assetOrArchive": "pulumi.json#/Asset"}
	tokenLike = regexp.MustCompile(`^[^:\s]+:[^:\s]*:[^:\s]+$`)
)

// IsEnum reports whether t is an enum as the host reads one: a named type
// with func (T) Values() []host.EnumValue[T].
func IsEnum(t reflect.Type) bool {
	_, ok := enumValues(t)
	return ok
}

// CheckResourceRef refuses a ref that names no resource.
func CheckResourceRef(t reflect.Type, ref string) error {
	if !tokenLike.MatchString(ref) && !strings.Contains(ref, "#/resources/") {
		return fmt.Errorf("WithResourceRef[%s](%q): want a resource token or a $ref to one (/pkg/vX.Y.Z/schema.json#/resources/<token>)", Elem(t), ref)
	}
	return nil
}

// resourceOfType is the $ref of the resource whose Go type is t.
func (p *Package) resourceOfType(t reflect.Type) (string, error) {
	t = Elem(t)
	if ref, ok := p.RefTypes[t]; ok {
		if strings.Contains(ref, "#") {
			return ref, nil
		}
		if !p.Components[ref] && p.Resources[ref] == nil {
			return "", fmt.Errorf("WithResourceRef[%s] names %s, which this provider does not register (another package's resource needs its $ref: /pkg/vX.Y.Z/schema.json#/resources/<token>)", t, ref)
		}
		return localRef("resources", ref), nil
	}
	var toks []string
	for tok := range p.Components {
		if sh, ok := p.Signatures[tok]; ok && sh.Result != nil && Elem(sh.Result) == t {
			toks = append(toks, tok)
		}
	}
	for tok, r := range p.Resources {
		sh, ok := p.Signatures[tok]
		backend := r
		if ok && sh.Fn != nil { // the author's, a typed one unwrapped
			backend = sh.Fn
		}
		if backend != nil && Elem(reflect.TypeOf(backend)) == t || ok && sh.Result != nil && Elem(sh.Result) == t {
			toks = append(toks, tok)
		}
	}
	slices.Sort(toks)
	switch len(toks) {
	case 0:
		return "", fmt.Errorf("%s is the Go type of no component or resource this provider registers; "+
			"for another package's resource say which with host.WithResourceRef[%s](\"/pkg/vX.Y.Z/schema.json#/resources/<token>\")", t, t)
	case 1:
		return localRef("resources", toks[0]), nil
	}
	return "", fmt.Errorf("%s is the Go type of %s: say which with the tag option type=<token>", t, strings.Join(toks, " and "))
}
