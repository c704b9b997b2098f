package typed

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
)

// Errors lists every property that failed to decode.
type Errors []diag.CheckFailure

func (e Errors) Error() string {
	parts := make([]string, len(e))
	for i, f := range e {
		parts[i] = f.String()
	}
	return strings.Join(parts, "; ")
}

var (
	valueType = reflect.TypeFor[property.Value]()
	mapType   = reflect.TypeFor[property.Map]()
	refType   = reflect.TypeFor[property.ResourceReference]()
)

type field struct {
	name     string
	index    []int // through embedded structs
	optional bool
	secret   bool
	typ      reflect.Type
}

// Field is one tagged property of a struct, or of a struct embedded in it.
type Field struct {
	Name     string       // the property name
	GoName   string       // the Go field name
	Owner    reflect.Type // the struct that declares the field: t, or one embedded in it
	Optional bool         // tagged ",optional" or ",omitempty", or a pointer
	Type     reflect.Type
	Tag      Tag // the tag's options
}

// Tag is what the options of a `pulumi:"name,opt,..."` tag say.
type Tag struct {
	Optional         bool   // optional, omitempty
	Secret           bool   // secret
	ReplaceOnChanges bool   // replaceOnChanges
	SchemaType       string // type=T: the schema type of a field whose Go type says none
}

// ParseTag splits a `pulumi` tag into the property name and its options,
// refusing an option it does not know.
func ParseTag(tag string) (name string, opts Tag, err error) {
	name, rest, _ := strings.Cut(tag, ",")
	for rest != "" {
		var opt string
		opt, rest, _ = strings.Cut(rest, ",")
		switch key, val, hasVal := strings.Cut(opt, "="); {
		case opt == "optional" || opt == "omitempty":
			opts.Optional = true
		case opt == "secret":
			opts.Secret = true
		case opt == "replaceOnChanges":
			opts.ReplaceOnChanges = true
		case key == "type" && hasVal && val != "":
			opts.SchemaType = val
		default:
			return name, opts, fmt.Errorf("unknown tag option %q (want optional, omitempty, secret, replaceOnChanges or type=T)", opt)
		}
	}
	return name, opts, nil
}

// Fields lists the tagged properties of t, a struct type or a pointer to
// one; ok is false for any other type.
func Fields(t reflect.Type) (fields []Field, ok bool, err error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, false, nil
	}
	l, err := layoutOf(t)
	if err != nil {
		return nil, true, err
	}
	for _, f := range l.fields {
		owner := t
		for _, i := range f.index[:len(f.index)-1] {
			owner = owner.Field(i).Type
			if owner.Kind() == reflect.Pointer {
				owner = owner.Elem()
			}
		}
		sf := owner.Field(f.index[len(f.index)-1])
		_, tag, _ := ParseTag(sf.Tag.Get("pulumi")) // layoutOf has parsed it
		fields = append(fields, Field{Name: f.name, GoName: sf.Name, Owner: owner, Optional: f.optional, Type: sf.Type, Tag: tag})
	}
	return fields, true, nil
}

type layout struct {
	fields []field
}

var layouts sync.Map // reflect.Type -> *layout

// layoutOf returns the cached field layout of a struct type. The tagged
// fields of an untagged embedded struct are its own, as encoding/json has
// them: a field of the outer struct hides one of the same property name
// in an embedded one.
func layoutOf(t reflect.Type) (*layout, error) {
	if l, ok := layouts.Load(t); ok {
		return l.(*layout), nil
	}
	type found struct {
		field
		goName string
		depth  int
	}
	var all []found
	var walk func(t reflect.Type, index []int, depth int, visiting map[reflect.Type]bool) error
	walk = func(t reflect.Type, index []int, depth int, visiting map[reflect.Type]bool) error {
		visiting[t] = true
		defer delete(visiting, t)
		for i := range t.NumField() {
			f := t.Field(i)
			tag, ok := f.Tag.Lookup("pulumi")
			if !ok && f.Anonymous {
				et := f.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() != reflect.Struct || visiting[et] || et.PkgPath() == goSDK {
					continue // the Go SDK's pulumi.ResourceState and the like are no properties
				}
				if f.Type.Kind() == reflect.Pointer && !f.IsExported() {
					if hasTags(et) {
						return fmt.Errorf("%s.%s: an embedded pointer to an unexported struct cannot be set; embed %s", t, f.Name, et.Name())
					}
					continue
				}
				if err := walk(et, append(slices.Clone(index), i), depth+1, visiting); err != nil {
					return err
				}
				continue
			}
			if !ok || tag == "-" {
				continue
			}
			if !f.IsExported() {
				return fmt.Errorf("%s.%s: tagged field must be exported", t, f.Name)
			}
			name, opts, err := ParseTag(tag)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", t, f.Name, err)
			}
			if name == "" {
				return fmt.Errorf("%s.%s: empty property name in tag", t, f.Name)
			}
			optional := opts.Optional || f.Type.Kind() == reflect.Pointer
			all = append(all, found{field{name: name, index: append(slices.Clone(index), i), optional: optional, secret: opts.Secret, typ: f.Type}, f.Name, depth})
		}
		return nil
	}
	if err := walk(t, nil, 0, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	l := &layout{}
	shallowest := map[string]found{}
	for _, f := range all {
		if other, dup := shallowest[f.name]; !dup || f.depth < other.depth {
			shallowest[f.name] = f
		} else if f.depth == other.depth {
			return nil, fmt.Errorf("%s: fields %s and %s both use property %q", t, other.goName, f.goName, f.name)
		}
	}
	for _, f := range all {
		if shallowest[f.name].depth == f.depth {
			l.fields = append(l.fields, f.field)
		}
	}
	actual, _ := layouts.LoadOrStore(t, l)
	return actual.(*layout), nil
}

const goSDK = "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

// hasTags reports whether struct t has a `pulumi`-tagged field.
func hasTags(t reflect.Type) bool {
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("pulumi"); ok {
			return true
		}
	}
	return false
}

// fieldOf is field f of struct value sv, through embedded structs; nil
// embedded pointers are allocated when alloc is set, and otherwise make
// ok false.
func fieldOf(sv reflect.Value, f field, alloc bool) (v reflect.Value, ok bool) {
	v = sv
	for n, i := range f.index {
		if n > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// Ref is host.Ref: a resource reference, typed by the Go type T of the
// resource it refers to, with its markers.
type Ref[T any] struct {
	property.Value
}

func (Ref[T]) refTarget() reflect.Type { return reflect.TypeFor[T]() }

type refTyped interface{ refTarget() reflect.Type }

var refTypedType = reflect.TypeFor[refTyped]()

// RefTarget is T, for t a Ref[T].
func RefTarget(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct || !t.Implements(refTypedType) {
		return nil, false
	}
	return reflect.Zero(t).Interface().(refTyped).refTarget(), true
}

// Lost lists the markers a decode could not keep: the paths of fields that
// cannot carry them (any but property.Value, and property.Map for what is
// inside it).
type Lost struct {
	Unknown []string // left at their zero value for an unknown
	Secret  []string // given a secret's plaintext
}

// Decode fills the struct pointed to by dst from m. Secrets are decoded by
// their plaintext and unknowns leave their field at its zero value; the
// paths of such fields are returned. property.Value fields keep both
// markers and are not among them. Every mismatch is reported.
func Decode(m property.Map, dst any) (Lost, error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return Lost{}, fmt.Errorf("typed.Decode: want a non-nil pointer to a struct, got %T", dst)
	}
	d := decoder{}
	if err := d.object("", m, rv.Elem()); err != nil {
		return Lost{}, err
	}
	if len(d.errs) > 0 {
		sort.Slice(d.errs, func(i, j int) bool { return d.errs[i].Property < d.errs[j].Property })
		return Lost{}, d.errs
	}
	return d.lost, nil
}

type decoder struct {
	errs Errors
	lost Lost
}

func (d *decoder) fail(path, format string, args ...any) {
	d.errs = append(d.errs, diag.CheckFailure{Property: path, Reason: fmt.Sprintf(format, args...)})
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// object decodes m into the struct value sv. Only programming errors (bad
// struct tags) are returned; input problems are collected in d.errs.
func (d *decoder) object(path string, m property.Map, sv reflect.Value) error {
	l, err := layoutOf(sv.Type())
	if err != nil {
		return err
	}
	for _, f := range l.fields {
		v, ok := m.GetOk(f.name)
		p := join(path, f.name)
		if !ok || v.IsNull() {
			if !f.optional && f.typ.Kind() != reflect.Pointer {
				d.fail(p, "missing required property %q", f.name)
			}
			continue
		}
		dst, _ := fieldOf(sv, f, true)
		if err := d.value(p, v, dst); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) value(path string, v property.Value, dst reflect.Value) error {
	t := dst.Type()
	if t == valueType {
		dst.Set(reflect.ValueOf(v))
		return nil
	}
	if _, ok := RefTarget(t); ok {
		if !v.IsResourceReference() && !v.IsComputed() {
			d.fail(path, "expected a resource reference, got %s", Describe(v))
			return nil
		}
		dst.Field(0).Set(reflect.ValueOf(v))
		return nil
	}
	switch {
	case t.Kind() == reflect.Pointer && !v.IsComputed(): // its element records what it loses
	case v.Secret(), t.Kind() == reflect.Interface && v.HasSecrets():
		// The field gets the plaintext; what is nested in a property.Map,
		// a slice, a map or a struct records its own.
		d.lost.Secret = append(d.lost.Secret, path)
	}
	if t == mapType {
		switch {
		case v.IsMap():
			dst.Set(reflect.ValueOf(v.AsMap()))
		case v.IsComputed():
			d.lost.Unknown = append(d.lost.Unknown, path)
		default:
			d.fail(path, "expected an object, got %s", Describe(v))
		}
		return nil
	}
	if v.IsComputed() {
		d.lost.Unknown = append(d.lost.Unknown, path)
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := reflect.New(t.Elem())
		if err := d.value(path, v, elem.Elem()); err != nil {
			return err
		}
		dst.Set(elem)
	case reflect.String:
		switch {
		case v.IsString():
			dst.SetString(v.AsString())
		case v.IsResourceReference():
			// Outside Construct and Call a reference stands for its ID, or its URN.
			ref := v.AsResourceReference()
			if id, ok := ref.IDString(); ok && id != "" {
				dst.SetString(id)
			} else {
				dst.SetString(string(ref.URN))
			}
		default:
			d.fail(path, "expected a string, got %s", Describe(v))
		}
	case reflect.Bool:
		if !v.IsBool() {
			d.fail(path, "expected a boolean, got %s", Describe(v))
			return nil
		}
		dst.SetBool(v.AsBool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := d.number(path, v)
		if !ok {
			return nil
		}
		if n != math.Trunc(n) || dst.OverflowInt(int64(n)) || math.IsInf(n, 0) {
			d.fail(path, "expected an integer that fits %s, got %v", t.Kind(), n)
			return nil
		}
		dst.SetInt(int64(n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := d.number(path, v)
		if !ok {
			return nil
		}
		if n != math.Trunc(n) || n < 0 || n > math.MaxUint64 || dst.OverflowUint(uint64(n)) {
			d.fail(path, "expected a non-negative integer that fits %s, got %v", t.Kind(), n)
			return nil
		}
		dst.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		n, ok := d.number(path, v)
		if ok {
			dst.SetFloat(n)
		}
	case reflect.Slice:
		if !v.IsArray() {
			d.fail(path, "expected an array, got %s", Describe(v))
			return nil
		}
		arr := v.AsArray()
		out := reflect.MakeSlice(t, arr.Len(), arr.Len())
		for i, e := range arr.All {
			if e.IsNull() {
				continue
			}
			if err := d.value(fmt.Sprintf("%s[%d]", path, i), e, out.Index(i)); err != nil {
				return err
			}
		}
		dst.Set(out)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("%s: map keys must be strings, field type is %s", path, t)
		}
		if !v.IsMap() {
			d.fail(path, "expected an object, got %s", Describe(v))
			return nil
		}
		out := reflect.MakeMapWithSize(t, v.AsMap().Len())
		for k, e := range v.AsMap().AllStable {
			ev := reflect.New(t.Elem()).Elem()
			if !e.IsNull() {
				if err := d.value(path+"["+strconv.Quote(k)+"]", e, ev); err != nil {
					return err
				}
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		dst.Set(out)
	case reflect.Struct:
		if t == refType {
			if !v.IsResourceReference() {
				d.fail(path, "expected a resource reference, got %s", Describe(v))
				return nil
			}
			dst.Set(reflect.ValueOf(v.AsResourceReference()))
			return nil
		}
		if !v.IsMap() {
			d.fail(path, "expected an object, got %s", Describe(v))
			return nil
		}
		return d.object(path, v.AsMap(), dst)
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return fmt.Errorf("%s: unsupported field type %s", path, t)
		}
		dst.Set(reflect.ValueOf(plain(v)))
	default:
		return fmt.Errorf("%s: unsupported field type %s", path, t)
	}
	return nil
}

func (d *decoder) number(path string, v property.Value) (float64, bool) {
	if !v.IsNumber() {
		d.fail(path, "expected a number, got %s", Describe(v))
		return 0, false
	}
	return v.AsNumber(), true
}

// plain turns a value into ordinary Go data for an `any` field.
func plain(v property.Value) any {
	switch {
	case v.IsArray():
		out := make([]any, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			out = append(out, plain(e))
		}
		return out
	case v.IsMap():
		out := make(map[string]any, v.AsMap().Len())
		for k, e := range v.AsMap().All {
			out[k] = plain(e)
		}
		return out
	case v.IsString():
		return v.AsString()
	case v.IsNumber():
		return v.AsNumber()
	case v.IsBool():
		return v.AsBool()
	case v.IsResourceReference():
		return v.AsResourceReference()
	case v.IsAsset():
		return v.AsAsset()
	case v.IsArchive():
		return v.AsArchive()
	}
	return nil
}

// Describe names a value for an error message: its kind, and for plain
// scalars its value. Of a secret it names only the kind.
func Describe(v property.Value) string {
	switch {
	case v.Secret():
		return "a secret " + secretKind(v)
	case v.IsString():
		return describeString(v.AsString())
	case v.IsNumber():
		return "the number " + strconv.FormatFloat(v.AsNumber(), 'g', -1, 64)
	case v.IsBool():
		return "the boolean " + strconv.FormatBool(v.AsBool())
	case v.IsArray():
		return "an array"
	case v.IsMap():
		return "an object"
	case v.IsResourceReference():
		return "a resource reference"
	case v.IsAsset():
		return "an asset"
	case v.IsArchive():
		return "an archive"
	case v.IsNull():
		return "null"
	case v.IsComputed():
		return "an unknown value"
	}
	return "a value"
}

// quotedBytes is how much of a string Describe quotes: a message about
// a value need not carry all of it.
const quotedBytes = 64

// describeString quotes s, or the start of it if it is long.
func describeString(s string) string {
	if len(s) <= quotedBytes {
		return strconv.Quote(s)
	}
	cut := quotedBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("a string of %d bytes, %s…", len(s), strconv.Quote(s[:cut]))
}

// Article is "a" or "an" for a schema type name: "an integer".
func Article(typ string) string {
	if typ != "" && strings.ContainsRune("aeiou", rune(typ[0])) { // integer, object, array, asset, archive, any
		return "an"
	}
	return "a"
}

// secretKind names v's kind, never its value.
func secretKind(v property.Value) string {
	switch {
	case v.IsString():
		return "string"
	case v.IsNumber():
		return "number"
	case v.IsBool():
		return "boolean"
	case v.IsArray():
		return "array"
	case v.IsMap():
		return "object"
	}
	return "value"
}

// Encode turns a struct (or pointer to one) into a property map. Fields of
// type property.Value keep their markers; optional fields at their zero
// value and nil pointers are left out.
func Encode(src any) (property.Map, error) {
	rv := reflect.ValueOf(src)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return property.Map{}, nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return property.Map{}, fmt.Errorf("typed.Encode: want a struct, got %T", src)
	}
	if rv.Type() == mapType {
		return rv.Interface().(property.Map), nil
	}
	return encodeObject("", rv)
}

func encodeObject(path string, sv reflect.Value) (property.Map, error) {
	l, err := layoutOf(sv.Type())
	if err != nil {
		return property.Map{}, err
	}
	out := make(map[string]property.Value, len(l.fields))
	for _, f := range l.fields {
		fv, ok := fieldOf(sv, f, false)
		if !ok { // in a nil embedded pointer: absent
			continue
		}
		if f.optional && fv.IsZero() {
			continue
		}
		v, err := encodeValue(join(path, f.name), fv)
		if err != nil {
			return property.Map{}, err
		}
		if v.IsNull() && f.optional {
			continue
		}
		if f.secret && !v.IsNull() {
			v = v.WithSecret(true)
		}
		out[f.name] = v
	}
	return property.NewMap(out), nil
}

func encodeValue(path string, fv reflect.Value) (property.Value, error) {
	switch fv.Type() {
	case valueType:
		return fv.Interface().(property.Value), nil
	case mapType:
		return property.New(fv.Interface().(property.Map)), nil
	case refType:
		return property.New(fv.Interface().(property.ResourceReference)), nil
	}
	if _, ok := RefTarget(fv.Type()); ok {
		return fv.Field(0).Interface().(property.Value), nil
	}
	switch fv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if fv.IsNil() {
			return property.Value{}, nil
		}
		if fv.Kind() == reflect.Interface {
			v, err := property.Any(fv.Interface())
			if err == nil {
				return v, nil
			}
		}
		return encodeValue(path, fv.Elem())
	case reflect.String:
		return property.New(fv.String()), nil
	case reflect.Bool:
		return property.New(fv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return property.New(float64(fv.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return property.New(float64(fv.Uint())), nil
	case reflect.Float32, reflect.Float64:
		return property.New(fv.Float()), nil
	case reflect.Slice, reflect.Array:
		if fv.Kind() == reflect.Slice && fv.IsNil() {
			return property.Value{}, nil
		}
		arr := make([]property.Value, fv.Len())
		for i := range fv.Len() {
			v, err := encodeValue(fmt.Sprintf("%s[%d]", path, i), fv.Index(i))
			if err != nil {
				return property.Value{}, err
			}
			arr[i] = v
		}
		return property.New(arr), nil
	case reflect.Map:
		if fv.IsNil() {
			return property.Value{}, nil
		}
		if fv.Type().Key().Kind() != reflect.String {
			return property.Value{}, fmt.Errorf("%s: map keys must be strings", path)
		}
		m := make(map[string]property.Value, fv.Len())
		iter := fv.MapRange()
		for iter.Next() {
			k := iter.Key().String()
			v, err := encodeValue(path+"["+strconv.Quote(k)+"]", iter.Value())
			if err != nil {
				return property.Value{}, err
			}
			m[k] = v
		}
		return property.New(m), nil
	case reflect.Struct:
		m, err := encodeObject(path, fv)
		if err != nil {
			return property.Value{}, err
		}
		return property.New(m), nil
	}
	return property.Value{}, fmt.Errorf("%s: unsupported field type %s", path, fv.Type())
}
