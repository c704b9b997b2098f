package schema

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/typed"
)

// Check validates props against obj: required properties, types, enums and
// ranges. Unknown values are not checked (they are only known at apply time),
// secrets are checked by their plaintext value, and properties the schema
// does not declare are reported. The result is sorted by path.
func (p *Package) Check(obj Object, props property.Map) []diag.CheckFailure {
	c := checker{pkg: p}
	c.object("", obj, props)
	sort.Slice(c.failures, func(i, j int) bool { return c.failures[i].Property < c.failures[j].Property })
	return c.failures
}

type checker struct {
	pkg      *Package
	failures []diag.CheckFailure
}

func (c *checker) fail(path, format string, args ...any) {
	c.failures = append(c.failures, diag.CheckFailure{Property: path, Reason: fmt.Sprintf(format, args...)})
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func (c *checker) object(path string, obj Object, props property.Map) {
	for _, name := range obj.Required {
		if v, ok := props.GetOk(name); !ok || v.IsNull() {
			c.fail(join(path, name), "missing required property %q", name)
		}
	}
	for key, v := range props.AllStable {
		spec, ok := obj.Properties[key]
		if !ok && v.IsNull() {
			continue // SDKs send declared outputs as null inputs
		}
		if !ok {
			c.fail(join(path, key), "unknown property %q", key)
			continue
		}
		c.value(join(path, key), spec, v)
	}
}

func (c *checker) value(path string, spec Property, v property.Value) {
	if v.IsComputed() || v.IsNull() {
		return
	}
	if spec.Ref != "" {
		c.ref(path, spec, v)
		return
	}
	switch spec.Type {
	case "string":
		if !v.IsString() {
			c.fail(path, "expected a string, got %s", typed.Describe(v))
		}
	case "boolean":
		if !v.IsBool() {
			c.fail(path, "expected a boolean, got %s", typed.Describe(v))
		}
	case "integer", "number":
		if !v.IsNumber() {
			c.fail(path, "expected %s %s, got %s", typed.Article(spec.Type), spec.Type, typed.Describe(v))
			return
		}
		n, shown := v.AsNumber(), num(v.AsNumber())
		if v.Secret() {
			shown = "the secret value"
		}
		if spec.Type == "integer" && n != math.Trunc(n) {
			c.fail(path, "expected an integer, got %s", shown)
		}
		if spec.Minimum != nil && n < *spec.Minimum {
			c.fail(path, "%s is below the minimum %s", shown, num(*spec.Minimum))
		}
		if spec.Maximum != nil && n > *spec.Maximum {
			c.fail(path, "%s is above the maximum %s", shown, num(*spec.Maximum))
		}
	case "array":
		if !v.IsArray() {
			c.fail(path, "expected an array, got %s", typed.Describe(v))
			return
		}
		if spec.Items == nil {
			return
		}
		for i, e := range v.AsArray().All {
			c.value(fmt.Sprintf("%s[%d]", path, i), *spec.Items, within(v, e))
		}
	case "object":
		if !v.IsMap() {
			c.fail(path, "expected an object, got %s", typed.Describe(v))
			return
		}
		if spec.AdditionalProperties == nil {
			return
		}
		for k, e := range v.AsMap().AllStable {
			c.value(fmt.Sprintf("%s[%s]", path, strconv.Quote(k)), *spec.AdditionalProperties, within(v, e))
		}
	}
}

func (c *checker) ref(path string, spec Property, v property.Value) {
	kind, tok, err := c.pkg.resolve(spec.Ref)
	if err != nil {
		c.fail(path, "%v", err)
		return
	}
	switch kind {
	case refAny:
	case refAsset: // in Pulumi's type system, an asset or an archive
		if !v.IsAsset() && !v.IsArchive() {
			c.fail(path, "expected an asset or an archive, got %s", typed.Describe(v))
		}
	case refArchive:
		if !v.IsArchive() {
			c.fail(path, "expected an archive, got %s", typed.Describe(v))
		}
	case refResource:
		// Where references are not negotiated the engine sends the ID or URN.
		if !v.IsResourceReference() && !v.IsString() {
			c.fail(path, "expected a reference to a %s resource, got %s", tok, typed.Describe(v))
			return
		}
		if !v.IsResourceReference() {
			return
		}
		u := v.AsResourceReference().URN
		switch {
		case !u.IsValid() && v.Secret():
			c.fail(path, "malformed resource reference: the secret value is not a URN")
		case !u.IsValid():
			c.fail(path, "malformed resource reference: %q is not a URN", string(u))
		case u.Type().String() != tok && v.Secret():
			c.fail(path, "expected a reference to a %s resource, got a secret reference to another type", tok)
		case u.Type().String() != tok:
			c.fail(path, "expected a reference to a %s resource, got a %s", tok, u.Type())
		}
	case refType:
		t, ok := c.pkg.Types[tok]
		if !ok {
			return // a type of another package
		}
		if len(t.Enum) > 0 {
			c.enum(path, tok, t, v)
			return
		}
		if !v.IsMap() {
			c.fail(path, "expected an object of type %s, got %s", tok, typed.Describe(v))
			return
		}
		props := v.AsMap()
		if v.Secret() {
			m := make(map[string]property.Value, props.Len())
			for k, e := range props.All {
				m[k] = within(v, e)
			}
			props = property.NewMap(m)
		}
		c.object(path, t.Object, props)
	}
}

// within is e, an element of v, marked secret if v is: a failure inside a
// secret describes its value as secret, never by its plaintext.
func within(v, e property.Value) property.Value {
	if v.Secret() && !e.Secret() {
		return e.WithSecret(true)
	}
	return e
}

func (c *checker) enum(path, tok string, t Type, v property.Value) {
	var allowed []string
	for _, e := range t.Enum {
		switch ev := e.Value.(type) {
		case string:
			if v.IsString() && v.AsString() == ev {
				return
			}
			allowed = append(allowed, strconv.Quote(ev))
		case float64:
			if v.IsNumber() && v.AsNumber() == ev {
				return
			}
			allowed = append(allowed, strconv.FormatFloat(ev, 'g', -1, 64))
		case bool:
			if v.IsBool() && v.AsBool() == ev {
				return
			}
			allowed = append(allowed, strconv.FormatBool(ev))
		}
	}
	slices.Sort(allowed)
	c.fail(path, "%s is not a valid %s; allowed: %v", typed.Describe(v), tok, allowed)
}

// num prints a number as a user wrote it: 31536000, not 3.1536e+07.
func num(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }
