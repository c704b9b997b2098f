package polyhost_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A plugin written against api/base.txt's API (testdata/baseapi) builds
// against this checkout after `go fix ./...`, which the deprecated names'
// //go:fix inline directives (deprecated.go in each package) drive, and
// names none of them any more.
func TestGoFixBaseAPI(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/baseapi")); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	goCmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	goCmd("mod", "edit", "-replace", modulePath+"="+repo)

	deprecated := deprecatedNames(t)
	before := usesOf(t, dir, deprecated)
	for pkg := range deprecated {
		if !slices.ContainsFunc(before, func(u string) bool { return strings.Contains(u, " "+filepath.Base(pkg)+".") }) {
			t.Errorf("testdata/baseapi uses no deprecated name of %s", pkg)
		}
	}
	goCmd("fix", "./...")
	if after := usesOf(t, dir, deprecated); len(after) > 0 {
		t.Errorf("after go fix, still deprecated:\n\t%s", strings.Join(after, "\n\t"))
	}
	goCmd("build", "./...")
	goCmd("vet", "./...")
}

// deprecatedNames is, by import path, the names that deprecated.go files
// mark //go:fix inline.
func deprecatedNames(t *testing.T) map[string][]string {
	names := map[string][]string{}
	inline := func(groups ...*ast.CommentGroup) bool {
		return slices.ContainsFunc(groups, func(g *ast.CommentGroup) bool {
			return g != nil && slices.ContainsFunc(g.List, func(c *ast.Comment) bool { return c.Text == "//go:fix inline" })
		})
	}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "testdata" || d.Name() == "internal" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			if err == nil {
				err = filepath.SkipDir
			}
			return err
		}
		if d.Name() != "deprecated.go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := modulePath + "/" + filepath.ToSlash(filepath.Dir(p))
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if inline(decl.Doc) {
					names[pkg] = append(names[pkg], decl.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if inline(decl.Doc, spec.Doc) {
							names[pkg] = append(names[pkg], spec.Name.Name)
						}
					case *ast.ValueSpec:
						if inline(decl.Doc, spec.Doc) {
							for _, n := range spec.Names {
								names[pkg] = append(names[pkg], n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no deprecated.go declares a //go:fix inline name")
	}
	return names
}

// usesOf lists the uses of deprecated names in the Go files of dir, as
// "file:line: pkg.Name".
func usesOf(t *testing.T, dir string, deprecated map[string][]string) []string {
	var uses []string
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		imported := map[string]string{} // local name → import path
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := filepath.Base(p)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imported[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(deprecated[imported[x.Name]], sel.Sel.Name) {
				pos := fset.Position(sel.Pos())
				uses = append(uses, filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line)+": "+filepath.Base(imported[x.Name])+"."+sel.Sel.Name)
			}
			return true
		})
	}
	return uses
}
