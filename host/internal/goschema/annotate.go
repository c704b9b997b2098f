package goschema

import (
	"fmt"
	"reflect"
	"sync"
)

// Annotations: what a struct says of itself and its fields in Go code the
// running plugin sees (descriptions, defaults), through an Annotate method
// with a pointer receiver, as pulumi-go-provider's infer reads it:
//
//	func (a *FileArgs) Annotate(an host.Annotator) {
//		an.Describe(&a, "A file on disk.")
//		an.Describe(&a.Path, "Where the file lives.")
//		an.SetDefault(&a.Mode, "0644", "FILE_MODE")
//	}

// Annotator is what an Annotate method is given (host.Annotator). Each
// method takes a pointer to the annotated struct, or to one of its fields.
type Annotator interface {
	// Describe sets the description of the struct or of a field: it wins
	// over the doc comment that go generate reads.
	Describe(ptr any, description string)
	// SetDefault sets the default of an optional field, a string, number
	// or boolean (an enum's constant too): the value the host gives it
	// when an input or configuration variable is absent. When env names
	// environment variables, the first one set gives the value instead.
	SetDefault(ptr any, value any, env ...string)
}

// Annotated is a struct with descriptions and defaults in Go code
// (host.Annotated): its pointer has an Annotate method.
type Annotated interface{ Annotate(Annotator) }

// annotations are what a struct's Annotate method said.
type annotations struct {
	description string
	fields      map[string]fieldAnnotation // by Go field name
	errs        []string
}

type fieldAnnotation struct {
	description string
	dflt        any // a string, float64 or bool, or nil
	env         []string
}

var annotationsCache sync.Map // reflect.Type -> *annotations

var annotatedType = reflect.TypeFor[Annotated]()

// annotationsOf are the annotations of struct type t (a pointer's
// element); nil when it has none.
func annotationsOf(t reflect.Type) *annotations {
	t = Elem(t)
	if t.Kind() != reflect.Struct {
		return nil
	}
	if a, ok := annotationsCache.Load(t); ok {
		return a.(*annotations)
	}
	var a *annotations
	switch {
	case t.Implements(annotatedType):
		a = &annotations{errs: []string{fmt.Sprintf("%s.Annotate has a value receiver, so it annotates a copy: give it a pointer receiver (func (x *%s) Annotate)", t, t.Name())}}
	case reflect.PointerTo(t).Implements(annotatedType):
		ptr := reflect.New(t)
		an := &annotator{t: t, base: ptr.Pointer(), out: &annotations{fields: map[string]fieldAnnotation{}}}
		ptr.Interface().(Annotated).Annotate(an)
		a = an.out
	}
	annotationsCache.Store(t, a)
	return a
}

// annotator records what an Annotate method says of struct t, whose zero
// value it was called on lives at base.
type annotator struct {
	t    reflect.Type
	base uintptr
	out  *annotations
}

func (a *annotator) fail(format string, args ...any) {
	a.out.errs = append(a.out.errs, fmt.Sprintf("%s.Annotate: ", a.t)+fmt.Sprintf(format, args...))
}

// target is the Go name of the field ptr points to, "" for the struct
// itself (&a, or &a where a is the receiver); ok is false, after failing,
// for any other pointer.
func (a *annotator) target(ptr any) (string, bool) {
	v := reflect.ValueOf(ptr)
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Pointer && v.Elem().Type().Elem() == a.t {
		v = v.Elem() // &a, a being the *T receiver
	}
	if v.Kind() != reflect.Pointer || v.IsNil() {
		a.fail("want a pointer to the struct or one of its fields, got %T", ptr)
		return "", false
	}
	if v.Type().Elem() == a.t && v.Pointer() == a.base {
		return "", true
	}
	for i := range a.t.NumField() {
		f := a.t.Field(i)
		if a.base+f.Offset == v.Pointer() && f.Type == v.Type().Elem() {
			return f.Name, true
		}
	}
	a.fail("%T is not a pointer to one of its fields", ptr)
	return "", false
}

func (a *annotator) Describe(ptr any, description string) {
	name, ok := a.target(ptr)
	switch {
	case !ok:
	case name == "":
		a.out.description = description
	default:
		f := a.out.fields[name]
		f.description = description
		a.out.fields[name] = f
	}
}

func (a *annotator) SetDefault(ptr any, value any, env ...string) {
	name, ok := a.target(ptr)
	if !ok {
		return
	}
	if name == "" {
		a.fail("SetDefault names the struct, not one of its fields")
		return
	}
	f := a.out.fields[name]
	f.env = env
	v := reflect.ValueOf(value)
	switch {
	case value == nil:
	case v.Kind() == reflect.String:
		f.dflt = v.String()
	case v.Kind() == reflect.Bool:
		f.dflt = v.Bool()
	case v.CanInt():
		f.dflt = v.Int()
	case v.CanUint():
		f.dflt = v.Uint()
	case v.CanFloat():
		f.dflt = v.Float()
	default:
		a.fail("the default of %s is a %T; a default is a string, number or boolean", name, value)
		return
	}
	a.out.fields[name] = f
}

// annotatedDocs is a Docs whose descriptions are those of Annotate methods
// where they say one, and those of docs (doc comments) elsewhere.
type annotatedDocs struct{ Docs }

func (d annotatedDocs) Type(t reflect.Type) string {
	if a := annotationsOf(t); a != nil && a.description != "" {
		return a.description
	}
	return d.Docs.Type(t)
}

func (d annotatedDocs) Field(t reflect.Type, field string) string {
	if a := annotationsOf(t); a != nil && a.fields[field].description != "" {
		return a.fields[field].description
	}
	return d.Docs.Field(t, field)
}

// Value passes ValueDocs on.
func (d annotatedDocs) Value(t reflect.Type, v any) string {
	if vd, ok := d.Docs.(ValueDocs); ok {
		return vd.Value(t, v)
	}
	return ""
}
