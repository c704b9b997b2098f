package schema

import (
	"strings"
	"unicode"
)

// Ports of the naming functions of Pulumi's SDK generators, pkg/v3 v3.260.0
// (github.com/pulumi/pulumi/pkg/v3/codegen/...), kept exact so the checks in
// languages.go see the identifiers the generators write. Each says where it
// comes from; the tests pin them on the generators' own examples.

// upperFirst is codegen/cgstrings.UppercaseFirst.
func upperFirst(s string) string {
	if s == "" {
		return ""
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// unhyphenate is codegen/cgstrings.Unhyphenate: "a-b-c" -> "aBC", a
// trailing "-" dropped.
func unhyphenate(s string) string {
	i := strings.Index(s, "-")
	if i < 0 {
		return s
	}
	if i+1 >= len(s) {
		return s[:len(s)-1]
	}
	next := s[i+1:]
	if next != "" {
		next = upperFirst(next)
	}
	return s[:i] + unhyphenate(next)
}

// camel is codegen/cgstrings.Camel: unhyphenated, with every rune before the
// first lower-case one lowered ("URLMap" -> "urlmap", "GetObject" -> "getObject").
func camel(s string) string {
	if s == "" {
		return ""
	}
	r := []rune(unhyphenate(s))
	out := make([]rune, 0, len(r))
	for i, c := range r {
		if unicode.IsLower(c) {
			out = append(out, r[i:]...)
			break
		}
		out = append(out, unicode.ToLower(c))
	}
	return string(out)
}

// tokenName is the member of a token as codegen/nodejs and codegen/python
// (gen.go tokenToName) name it: upperFirst(unhyphenate(member)).
func tokenName(member string) string { return upperFirst(unhyphenate(member)) }

// goTitle is codegen/go/gen.go Title: "$" dropped, upperFirst, unhyphenated,
// "_" before a first byte that cannot start a Go identifier.
func goTitle(s string) string {
	if s == "" {
		return ""
	}
	if s[0] == '$' {
		return goTitle(s[1:])
	}
	s = unhyphenate(upperFirst(s))
	if s != "" && !(s[0] == '_' || unicode.IsLetter(rune(s[0]))) {
		s = "_" + s
	}
	return s
}

// goFieldName is codegen/go/gen.go fieldName (and utilities.go
// structFieldName): Title, with "_" after a name that would clash with a
// method of the generated type (isReservedResourceField). resource is the
// resource's Go name, "" for object types and function arguments.
func goFieldName(resource, prop string) string {
	s := goTitle(prop)
	switch s {
	case "ID", "URN", "GetProvider", "ElementType":
		return s + "_"
	}
	if resource != "" && (s == "To"+resource+"Output" || s == "To"+resource+"OutputWithContext") {
		return s + "_"
	}
	return s
}

// pyKeywords is codegen/python/python.go Keywords: Python 2 and 3 keywords,
// which PyName and pyClassName escape with a trailing "_".
var pyKeywords = setOf("False", "None", "True", "and", "as", "assert", "async", "await", "break",
	"class", "continue", "def", "del", "elif", "else", "except", "exec", "finally", "for", "from",
	"global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "print",
	"raise", "return", "try", "while", "with", "yield")

// pyLegacyNames is codegen/python/python.go useLegacyName.
var pyLegacyNames = setOf("openXJsonSerDe", "GetPublicIPs", "GetUptimeCheckIPs")

func pyIdentStart(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' ||
		unicode.In(c, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl)
}

func pyIdentPart(c rune) bool {
	return pyIdentStart(c) || c >= '0' && c <= '9' ||
		unicode.In(c, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc)
}

// pyName is codegen/python/python.go PyName: camelCase to snake_case, a
// keyword escaped with a trailing "_" (EnsureKeywordSafe).
func pyName(name string) string {
	const (
		stateFirst = iota
		stateUpper
		stateAcronym
		stateLowerOrNumber
	)
	legacy := pyLegacyNames[name]
	var result, cur strings.Builder
	state := stateFirst
	for _, c := range name {
		if !pyIdentPart(c) {
			c = '_'
		}
		switch state {
		case stateFirst:
			if !pyIdentStart(c) {
				cur.WriteRune('_')
			}
			if unicode.IsUpper(c) {
				state = stateUpper
				cur.WriteRune(unicode.ToLower(c))
				continue
			}
			state = stateLowerOrNumber
			cur.WriteRune(c)
		case stateUpper:
			if unicode.IsUpper(c) {
				state = stateAcronym
				cur.WriteRune(unicode.ToLower(c))
				continue
			}
			state = stateLowerOrNumber
			cur.WriteRune(c)
		case stateAcronym:
			if unicode.IsUpper(c) {
				cur.WriteRune(unicode.ToLower(c))
				continue
			}
			if unicode.IsDigit(c) || (c == 's' && !legacy) {
				state = stateLowerOrNumber
				cur.WriteRune(c)
				continue
			}
			comp := []rune(cur.String())
			if result.Len() != 0 {
				result.WriteRune('_')
			}
			result.WriteString(string(comp[:len(comp)-1]))
			cur.Reset()
			cur.WriteRune(comp[len(comp)-1])
			cur.WriteRune(c)
			state = stateLowerOrNumber
		case stateLowerOrNumber:
			if unicode.IsUpper(c) {
				if result.Len() != 0 {
					result.WriteRune('_')
				}
				result.WriteString(cur.String())
				cur.Reset()
				cur.WriteRune(unicode.ToLower(c))
				state = stateUpper
				continue
			}
			cur.WriteRune(c)
		}
	}
	if cur.Len() != 0 {
		if result.Len() != 0 {
			result.WriteRune('_')
		}
		result.WriteString(cur.String())
	}
	s := result.String()
	if pyKeywords[s] {
		return s + "_"
	}
	return s
}

// pyInitParamName is codegen/python/gen.go InitParamName: PyName, with "_"
// after the parameters every resource constructor and get() already have.
func pyInitParamName(name string) string {
	s := pyName(name)
	if s == "resource_name" || s == "opts" {
		return s + "_"
	}
	return s
}

// jsReserved is codegen/nodejs/utilities.go isReservedWord (ECMA-262
// keywords, future reserved words, null, true and false): the words the
// generator escapes where it calls makeValidIdentifier, and nowhere else.
var jsReserved = setOf("break", "case", "catch", "class", "const", "continue", "debugger", "default",
	"delete", "do", "else", "export", "extends", "finally", "for", "function", "if", "import", "in",
	"instanceof", "new", "return", "super", "switch", "this", "throw", "try", "typeof", "var", "void",
	"while", "with", "yield", "enum", "await", "implements", "interface", "package", "private",
	"protected", "public", "null", "true", "false")

// jsIdentifierName is codegen/nodejs/utilities.go isLegalIdentifierName.
func jsIdentifierName(s string) bool {
	for i, c := range s {
		start := c == '$' || c == '_' || unicode.In(c, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl)
		if !start && (i == 0 || !unicode.In(c, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc)) {
			return false
		}
	}
	return s != ""
}

// goKeywords are the Go language's keywords (https://go.dev/ref/spec#Keywords).
var goKeywords = setOf("break", "default", "func", "interface", "select", "case", "defer", "go", "map",
	"struct", "chan", "else", "goto", "package", "switch", "const", "fallthrough", "if", "range", "type",
	"continue", "for", "import", "return", "var")

// goIdentifier says whether s is a Go identifier (letters, digits and "_",
// not starting with a digit).
func goIdentifier(s string) bool {
	for i, c := range s {
		if !(c == '_' || unicode.IsLetter(c) || i > 0 && unicode.IsDigit(c)) {
			return false
		}
	}
	return s != ""
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
