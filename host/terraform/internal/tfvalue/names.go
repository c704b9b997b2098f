// Package tfvalue converts between Pulumi property values and Terraform
// values (terraform-plugin-go's tftypes), driven by a provider's schema, and
// maps Terraform attribute names and paths to Pulumi property names and paths.
//
// Names: a Terraform attribute or block name in snake_case becomes a
// lowerCamelCase property name (offset_days -> offsetDays) at every level of
// objects, never for map keys. The mapping of one object's names is computed
// from all of its names together (PropertyNames): a name that is not plain
// snake_case, or whose camel form two names of the object share (foo_bar
// and fooBar), keeps its Terraform name; a name Pulumi's SDKs cannot take
// somewhere (urn, constructor, opts...) gets "_" appended. The mapping is
// one-to-one and the reverse lookup never un-camels. Inside a value of DynamicPseudoType
// object attribute names are kept as they are: no type exists to map them
// back.
//
// Numbers: a property number is a float64. A Terraform number converts when
// float64 holds it exactly, or when it is a decimal whose shortest decimal
// text float64 reproduces (0.1 parsed at 512 bits); any other number (an
// integer beyond 2^53 that float64 rounds, a decimal with more digits) is an
// error naming its property path. NaN is an error too.
//
// Paths are rendered as Pulumi property paths: attributes as .name, list
// elements as [i], map keys always as ["key"] (quotes escaped as \"), which
// resource.ParsePropertyPath reads back.
package tfvalue

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// PropertyName is the Pulumi property name of a Terraform attribute or block
// name: offset_days -> offsetDays. A name that is not plain snake_case
// (lower-case letters, digits and single inner underscores, each part after
// the first starting with a letter) is returned unchanged. Within one
// object, names that would collide keep their Terraform names and reserved
// names are renamed: see PropertyNames.
func PropertyName(tfName string) string {
	if !strings.Contains(tfName, "_") {
		return tfName
	}
	parts := strings.Split(tfName, "_")
	if len(parts[0]) == 0 || !isLower(parts[0][0]) {
		return tfName
	}
	var b strings.Builder
	b.Grow(len(tfName))
	for i, p := range parts {
		if p == "" || !allLowerOrDigit(p) {
			return tfName
		}
		if i > 0 {
			if !isLower(p[0]) {
				return tfName
			}
			b.WriteByte(p[0] - 'a' + 'A')
			p = p[1:]
		}
		b.WriteString(p)
	}
	return b.String()
}

// PropertyNames maps the Terraform names of one object's attributes (and
// blocks) to property names: PropertyName of each, except that all names
// whose property name is shared by another name keep their Terraform names,
// and a reserved name gets "_" appended (as many as make it unique). The
// result is one-to-one, and deterministic whatever the order.
func PropertyNames(tfNames []string) map[string]string {
	out := make(map[string]string, len(tfNames))
	count := make(map[string]int, len(tfNames))
	for _, n := range tfNames {
		p := PropertyName(n)
		out[n] = p
		count[p]++
	}
	used := make(map[string]bool, len(tfNames))
	var clash []string
	for _, n := range tfNames {
		if count[out[n]] > 1 {
			out[n] = n
		}
		if reserved[out[n]] {
			clash = append(clash, n)
		} else {
			used[out[n]] = true
		}
	}
	sort.Strings(clash)
	for _, n := range clash {
		p := out[n] + "_"
		for used[p] || reserved[p] {
			p += "_"
		}
		out[n], used[p] = p, true
	}
	return out
}

// reserved are property names some Pulumi SDK generator cannot take in some
// position (schema.Package.LanguageProblems): a resource output urn,
// constructor or getProvider (TypeScript), pulumiResourceName or
// pulumiResourceType (Go), a function input opts or any __self__ (Python).
// They are renamed everywhere: one rule for every position.
var reserved = map[string]bool{
	"urn": true, "constructor": true, "getProvider": true,
	"pulumiResourceName": true, "pulumiResourceType": true,
	"opts": true, "__self__": true,
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func allLowerOrDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLower(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// Path rendering, in Pulumi's property path syntax.

func namePath(parent, name string) string {
	if name != "" && !needsQuote(name) {
		if parent == "" {
			return name
		}
		return parent + "." + name
	}
	return keyPath(parent, name)
}

func keyPath(parent, key string) string {
	return parent + `["` + strings.ReplaceAll(key, `"`, `\"`) + `"]`
}

func indexPath(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}

func needsQuote(s string) bool {
	for _, c := range s {
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return true
		}
	}
	return false
}

// BlockPropertyNames are the property names of a block's attributes and
// nested blocks, by Terraform name (PropertyNames of them all).
func BlockPropertyNames(b *tfprotov6.SchemaBlock) map[string]string {
	names := make([]string, 0, len(b.Attributes)+len(b.BlockTypes))
	for _, a := range b.Attributes {
		names = append(names, a.Name)
	}
	for _, nb := range b.BlockTypes {
		names = append(names, nb.TypeName)
	}
	return PropertyNames(names)
}

// Known is m without the keys that are no property of block's: the part
// of a package's configuration that is a provider's, or a recorded state
// without an attribute the provider has since dropped.
func Known(b *tfprotov6.SchemaBlock, m property.Map) property.Map {
	return (&Block{names: BlockPropertyNames(b)}).Known(m)
}
