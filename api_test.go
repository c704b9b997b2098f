package polyhost_test

// The exported API of every public package of the module, listed one
// element a line in api/polyhost.txt, as Go lists its own in api/. A change
// of the API fails TestAPI until the list is regenerated (-update), and
// TestAPIChangelog until CHANGELOG.md's Unreleased section names every
// declaration that changed since api/base.txt, the API the section starts
// from (at a release, copy polyhost.txt over base.txt).

import (
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite api/polyhost.txt with the API as it is")

const (
	modulePath = "github.com/polyhost/polyhost"
	goldenFile = "api/polyhost.txt"
	baseFile   = "api/base.txt"
)

func TestAPI(t *testing.T) {
	got := strings.Join(apiLines(t), "\n") + "\n"
	if *update {
		if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	added, removed := diffLines(strings.Split(string(want), "\n"), strings.Split(got, "\n"))
	if len(added)+len(removed) == 0 {
		return
	}
	t.Errorf("the exported API is not what %s says:\n%s\nIf the change is meant: go test -run TestAPI -update . and say what changed, with a line of migration, in CHANGELOG.md",
		goldenFile, formatDiff(added, removed))
}

// Every declaration added, removed or changed since base.txt is named in
// CHANGELOG.md's Unreleased section as pkg.Name (host.WithConfig).
func TestAPIChangelog(t *testing.T) {
	golden, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(baseFile)
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	unreleased, ok := section(string(log), "## [Unreleased]")
	if !ok {
		t.Fatal("CHANGELOG.md has no ## [Unreleased] section")
	}
	added, removed := diffLines(strings.Split(string(base), "\n"), strings.Split(string(golden), "\n"))
	basePkgs := packages(string(base))
	var missing []string
	for _, l := range slices.Concat(added, removed) {
		name := declName(l)
		if name == "" || mentions(unreleased, name) || slices.Contains(missing, name) {
			continue
		}
		// A package new since base.txt is named once, as a whole.
		if pkg := pkgPath(l); !basePkgs[pkg] {
			if p := "Package `" + strings.TrimPrefix(pkg, modulePath+"/") + "`"; !strings.Contains(unreleased, p) && !slices.Contains(missing, p) {
				missing = append(missing, p)
			}
			continue
		}
		missing = append(missing, name)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("CHANGELOG.md's Unreleased section does not name these declarations, changed since %s:\n\t%s",
			baseFile, strings.Join(missing, "\n\t"))
	}
}

// section is the text of markdown section heading, up to the next heading
// of the same level.
func section(doc, heading string) (string, bool) {
	_, rest, ok := strings.Cut(doc, heading+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

// mentions reports whether text names name as a whole word.
func mentions(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		before := j == 0 || !isIdent(text[j-1])
		after := end == len(text) || !isIdent(text[end]) || text[end] == '.' // host.Component.Call names host.Component
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIdent(c byte) bool {
	return c == '_' || c == '.' || c == '/' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// pkgPath is the import path of the package a line of the list is about.
func pkgPath(line string) string {
	rest, _ := strings.CutPrefix(line, "pkg ")
	pkg, _, _ := strings.Cut(rest, ", ")
	return pkg
}

// packages is the set of packages a list names.
func packages(list string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, "pkg ") {
			m[pkgPath(l)] = true
		}
	}
	return m
}

// declName is pkg.Name of the declaration a line of the list is about.
func declName(line string) string {
	rest, ok := strings.CutPrefix(line, "pkg ")
	if !ok {
		return ""
	}
	pkg, decl, _ := strings.Cut(rest, ", ")
	kind, decl, _ := strings.Cut(decl, " ")
	if kind == "method" { // (*T) Name(...): T's, whose own line declares it
		recv, _, _ := strings.Cut(strings.TrimPrefix(decl, "("), ")")
		recv, _, _ = strings.Cut(strings.TrimPrefix(recv, "*"), "[")
		return path.Base(pkg) + "." + recv
	}
	name := strings.FieldsFunc(decl, func(r rune) bool { return r == ' ' || r == '[' || r == '(' || r == ',' })[0]
	return path.Base(pkg) + "." + name
}

func diffLines(old, new []string) (added, removed []string) {
	in := func(l []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range l {
			if s != "" {
				m[s] = true
			}
		}
		return m
	}
	o, n := in(old), in(new)
	for s := range n {
		if !o[s] {
			added = append(added, s)
		}
	}
	for s := range o {
		if !n[s] {
			removed = append(removed, s)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	return added, removed
}

func formatDiff(added, removed []string) string {
	var b strings.Builder
	for _, l := range removed {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range added {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// apiLines lists the exported API of the module's public packages: every
// package outside internal/, tests/, docs/ and examples/ that is not a
// command.
func apiLines(t *testing.T) []string {
	var lines []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		base := d.Name()
		if p != "." && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "internal" || base == "node_modules") {
			return filepath.SkipDir
		}
		switch p {
		case "tests", "docs", "examples", "sdk", "api":
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != "." {
			return filepath.SkipDir // a module of its own
		}
		pkg, err := build.ImportDir(p, 0)
		if err != nil || pkg.Name == "main" || len(pkg.GoFiles) == 0 {
			return nil
		}
		importPath := modulePath
		if p != "." {
			importPath += "/" + filepath.ToSlash(p)
		}
		ls, err := packageAPI(p, importPath, pkg.GoFiles)
		if err != nil {
			return err
		}
		lines = append(lines, ls...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// packageAPI lists one package's exported declarations. A type alias of
// a type in one of the module's internal packages is listed as that type,
// as its users see it.
func packageAPI(dir, importPath string, files []string) ([]string, error) {
	fset := token.NewFileSet()
	var out []string
	add := func(format string, args ...any) {
		out = append(out, "pkg "+importPath+", "+fmt.Sprintf(format, args...))
	}
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		imports := map[string]string{}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			name := path.Base(p)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = p
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				sig := typeParams(d.Type.TypeParams) + signature(d.Type)
				if d.Recv == nil {
					add("func %s%s", d.Name.Name, sig)
					continue
				}
				recv := expr(d.Recv.List[0].Type)
				if !ast.IsExported(strings.TrimLeft(strings.SplitN(recv, "[", 2)[0], "*")) {
					continue
				}
				add("method (%s) %s%s", recv, d.Name.Name, sig)
			case *ast.GenDecl:
				var groupType string // a const group's type, repeated by its specs without one
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if target, ok := internalAlias(s, imports); ok {
							if err := aliasedAPI(add, s, target); err != nil {
								return nil, err
							}
							continue
						}
						typeSpec(add, s)
					case *ast.ValueSpec:
						kind := d.Tok.String()
						if s.Type != nil {
							groupType = expr(s.Type)
						} else if kind == "var" || len(s.Values) > 0 {
							groupType = ""
						}
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							if groupType != "" {
								add("%s %s %s", kind, n.Name, groupType)
							} else {
								add("%s %s", kind, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return out, nil
}

// internalAlias is the import path and name of the type alias s names, if
// it is in one of the module's internal packages.
func internalAlias(s *ast.TypeSpec, imports map[string]string) ([2]string, bool) {
	if !s.Assign.IsValid() {
		return [2]string{}, false
	}
	rhs := s.Type
	switch e := rhs.(type) {
	case *ast.IndexExpr:
		rhs = e.X
	case *ast.IndexListExpr:
		rhs = e.X
	}
	sel, ok := rhs.(*ast.SelectorExpr)
	if !ok {
		return [2]string{}, false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return [2]string{}, false
	}
	p := imports[x.Name]
	if !strings.HasPrefix(p, modulePath+"/") || !strings.Contains(p+"/", "/internal/") {
		return [2]string{}, false
	}
	return [2]string{p, sel.Sel.Name}, true
}

// aliasedAPI lists, under alias s's name, the type it names in an internal
// package (target: its import path and name) and that type's methods.
func aliasedAPI(add func(string, ...any), s *ast.TypeSpec, target [2]string) error {
	dir := filepath.FromSlash(strings.TrimPrefix(target[0], modulePath+"/"))
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Name == target[1] {
						renamed := *ts
						renamed.Name = s.Name
						typeSpec(add, &renamed)
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || !d.Name.IsExported() {
					continue
				}
				recv := expr(d.Recv.List[0].Type)
				if base, _, _ := strings.Cut(strings.TrimPrefix(recv, "*"), "["); base != target[1] {
					continue
				}
				recv = strings.Replace(recv, target[1], s.Name.Name, 1)
				add("method (%s) %s%s", recv, d.Name.Name, typeParams(d.Type.TypeParams)+signature(d.Type))
			}
		}
	}
	return nil
}

func typeSpec(add func(string, ...any), s *ast.TypeSpec) {
	name := s.Name.Name + typeParams(s.TypeParams)
	if s.Assign.IsValid() {
		add("type %s = %s", name, expr(s.Type))
		return
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		add("type %s struct", name)
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 {
				if embedded := strings.TrimLeft(expr(f.Type), "*"); ast.IsExported(embedded[strings.LastIndex(embedded, ".")+1:]) {
					add("type %s struct, embedded %s", name, expr(f.Type))
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					add("type %s struct, %s %s", name, n.Name, expr(f.Type))
				}
			}
		}
	case *ast.InterfaceType:
		add("type %s interface", name)
		for _, m := range t.Methods.List {
			if len(m.Names) == 0 {
				add("type %s interface, embedded %s", name, expr(m.Type))
				continue
			}
			for _, n := range m.Names {
				if n.IsExported() {
					add("type %s interface, %s%s", name, n.Name, signature(m.Type.(*ast.FuncType)))
				} else {
					add("type %s interface, unexported methods", name)
				}
			}
		}
	default:
		add("type %s %s", name, expr(s.Type))
	}
}

func typeParams(l *ast.FieldList) string {
	if l == nil || len(l.List) == 0 {
		return ""
	}
	var ps []string
	for _, f := range l.List {
		for _, n := range f.Names {
			ps = append(ps, n.Name+" "+expr(f.Type))
		}
	}
	return "[" + strings.Join(ps, ", ") + "]"
}

// signature is a function type's parameters and results, without their
// names: renaming a parameter changes no caller.
func signature(ft *ast.FuncType) string {
	s := "(" + strings.Join(fieldTypes(ft.Params), ", ") + ")"
	res := fieldTypes(ft.Results)
	switch {
	case len(res) == 1:
		s += " " + res[0]
	case len(res) > 1:
		s += " (" + strings.Join(res, ", ") + ")"
	}
	return s
}

func fieldTypes(l *ast.FieldList) []string {
	if l == nil {
		return nil
	}
	var out []string
	for _, f := range l.List {
		n := max(len(f.Names), 1)
		for range n {
			out = append(out, expr(f.Type))
		}
	}
	return out
}

// expr prints a type expression, function types without parameter names.
func expr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.FuncType:
		return "func" + signature(e)
	case *ast.StarExpr:
		return "*" + expr(e.X)
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + expr(e.Elt)
		}
		return "[" + types.ExprString(e.Len) + "]" + expr(e.Elt)
	case *ast.MapType:
		return "map[" + expr(e.Key) + "]" + expr(e.Value)
	case *ast.Ellipsis:
		return "..." + expr(e.Elt)
	case *ast.ChanType:
		switch e.Dir {
		case ast.SEND:
			return "chan<- " + expr(e.Value)
		case ast.RECV:
			return "<-chan " + expr(e.Value)
		}
		return "chan " + expr(e.Value)
	case *ast.IndexExpr:
		return expr(e.X) + "[" + expr(e.Index) + "]"
	case *ast.IndexListExpr:
		var args []string
		for _, a := range e.Indices {
			args = append(args, expr(a))
		}
		return expr(e.X) + "[" + strings.Join(args, ", ") + "]"
	}
	return types.ExprString(e)
}
