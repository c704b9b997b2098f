package show

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Options say for whom a value is printed. The zero Options print it
// exactly, every marker shown, for a test's diff: a secret as secret(...)
// around its value, an unknown as unknown, strings and map keys quoted,
// numbers as strconv's shortest 'g', a resource reference as ref(URN
// without stack and project, id ID, version "V").
type Options struct {
	// User prints for a user's display: a secret as [secret] whatever it
	// holds, an unknown as [unknown], map keys bare, a resource reference
	// as "resource URN".
	User bool
	// Bare prints the top-level value as a script compares it: a string
	// unquoted, a number in decimals, a secret as [secret], an unknown as
	// [unknown], a resource reference as "ref URN id ID" ("ref URN"
	// without an ID). What it holds prints as without Bare.
	Bare bool
}

// Value prints v as o says.
func Value(v property.Value, o Options) string { return value(v, o, true) }

func value(v property.Value, o Options, top bool) string {
	if top && o.Bare {
		switch {
		case v.Secret():
			return "[secret]"
		case v.IsString():
			return v.AsString()
		case v.IsNumber():
			return strconv.FormatFloat(v.AsNumber(), 'f', -1, 64)
		case v.IsComputed():
			return "[unknown]"
		case v.IsResourceReference():
			ref := v.AsResourceReference()
			if ref.ID.IsString() && ref.ID.AsString() != "" {
				return "ref " + string(ref.URN) + " id " + ref.ID.AsString()
			}
			return "ref " + string(ref.URN)
		}
	}
	if o.User && v.Secret() {
		return "[secret]"
	}
	var s string
	switch {
	case v.IsComputed() && o.User:
		s = "[unknown]"
	case v.IsComputed():
		s = "unknown"
	case v.IsNull():
		s = "null"
	case v.IsString():
		s = strconv.Quote(v.AsString())
	case v.IsNumber():
		s = strconv.FormatFloat(v.AsNumber(), 'g', -1, 64)
	case v.IsBool():
		s = strconv.FormatBool(v.AsBool())
	case v.IsArray():
		var parts []string
		for _, e := range v.AsArray().All {
			parts = append(parts, value(e, o, false))
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	case v.IsMap():
		var parts []string
		for k, e := range v.AsMap().AllStable {
			if !o.User {
				k = strconv.Quote(k)
			}
			parts = append(parts, k+": "+value(e, o, false))
		}
		s = "{" + strings.Join(parts, ", ") + "}"
	case v.IsResourceReference() && o.User:
		s = "resource " + string(v.AsResourceReference().URN)
	case v.IsResourceReference():
		ref := v.AsResourceReference()
		s = fmt.Sprintf("ref(%s, id %s, version %q)", ShortURN(ref.URN), value(ref.ID, o, false), ref.PackageVersion)
	case o.User: // assets and archives
		s = v.GoString()
	default:
		s = fmt.Sprintf("%v", v)
	}
	if v.Secret() {
		s = "secret(" + s + ")"
	}
	return s
}

// ShortURN is u without its stack and project, which two runs of a
// program share.
func ShortURN(u urn.URN) string {
	parts := strings.SplitN(string(u), "::", 3)
	if len(parts) == 3 {
		return parts[2]
	}
	return string(u)
}
