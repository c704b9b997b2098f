package gosdk

import (
	"reflect"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/polyhost/polyhost/host/internal/goschema"
)

// The schema of a component or method written with the Go SDK is built
// from its Go types as for the raw path; this says what the SDK's types
// stand for: an Input or Output type for the type of its value, a
// resource type for a reference to that resource. A named scalar that
// implements Input and declares Values (as host.EnumValue) is an enum,
// described by the host as on the raw path; its Input interface and
// Output type are that enum too. Component and Method give it to the
// provider (core.Provider.SetSDKTypes).

var (
	resourceType       = reflect.TypeFor[pulumi.Resource]()
	outputType         = reflect.TypeFor[pulumi.Output]()
	assetOrArchiveType = reflect.TypeFor[pulumi.AssetOrArchive]()
	archiveType        = reflect.TypeFor[pulumi.Archive]()
	anyInputTypes      = []reflect.Type{reflect.TypeFor[pulumi.Input](), outputType}
)

// sdkType says what t, a type of the Go SDK or of a generated SDK, stands
// for; ok is false for any other type.
func sdkType(t reflect.Type) (goschema.SDKType, bool) {
	switch {
	case t.Kind() == reflect.Struct && reflect.PointerTo(t).Implements(resourceType):
		return goschema.SDKType{Resource: t}, true
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && t.Implements(resourceType):
		return goschema.SDKType{Resource: t.Elem()}, true
	case t.Implements(archiveType) || t == reflect.TypeFor[pulumi.ArchiveInput]() || t == reflect.TypeFor[pulumi.ArchiveOutput]():
		return goschema.SDKType{Builtin: "archive"}, true
	case t.Implements(assetOrArchiveType):
		return goschema.SDKType{Builtin: "asset"}, true
	case t.Kind() == reflect.Interface && (t == anyInputTypes[0] || t == anyInputTypes[1]):
		return goschema.SDKType{Builtin: "any"}, true
	case t.Kind() == reflect.Pointer:
		st, ok := sdkType(t.Elem())
		if ok && st.Elem != nil {
			st.Elem = reflect.PointerTo(st.Elem)
		}
		return st, ok
	case t.Kind() != reflect.Interface && t.Implements(inputType):
		// An Output, or a concrete Input (pulumi.String, a generated
		// SDK's args): its zero value says its element type.
		if et, ok := elementType(t); ok && et == t && goschema.IsEnum(t) {
			// An enum: the host reads its Values, as on the raw path. A
			// generated SDK's enum declares none (its values are
			// constants, which reflection cannot list): a plain string.
			return goschema.SDKType{}, false
		} else if ok && et == t && t.Kind() == reflect.String { // pulumi.ID, pulumi.URN
			return goschema.SDKType{Elem: reflect.TypeFor[string]()}, true
		} else if ok && et != t {
			return elemOf(et)
		}
	case t.Kind() == reflect.Interface && t.Implements(inputType):
		// pulumi.StringInput and the like: ToStringOutput says.
		for i := range t.NumMethod() {
			m := t.Method(i)
			if strings.HasPrefix(m.Name, "To") && strings.HasSuffix(m.Name, "Output") &&
				m.Type.NumIn() == 0 && m.Type.NumOut() == 1 && m.Type.Out(0).Implements(outputType) {
				if et, ok := elementType(m.Type.Out(0)); ok {
					return elemOf(et)
				}
			}
		}
	}
	return goschema.SDKType{}, false
}

// elemOf is an element type, which may itself be the SDK's (an asset, a
// resource).
func elemOf(t reflect.Type) (goschema.SDKType, bool) {
	if st, ok := sdkType(t); ok && (st.Builtin != "" || st.Resource != nil) {
		return st, true
	}
	if t.Kind() == reflect.Interface && t.NumMethod() == 0 {
		return goschema.SDKType{Builtin: "any"}, true
	}
	return goschema.SDKType{Elem: t}, true
}

// elementType is what ElementType says on t's zero value; ok is false if
// it cannot say (it panics on a nil receiver).
func elementType(t reflect.Type) (et reflect.Type, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	et = reflect.Zero(t).Interface().(pulumi.Input).ElementType()
	return et, et != nil
}
