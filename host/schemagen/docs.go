package schemagen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Docs reads doc comments from the Go source of the packages the types
// and functions it is asked about belong to, locating each package with
// `go list` (run in the current directory, so in the module being
// generated). It implements host.Docs.
type Docs struct {
	mu   sync.Mutex
	pkgs map[string]*doc.Package // by import path; nil when unreadable
	errs []error
}

// NewDocs returns a Docs with nothing read yet.
func NewDocs() *Docs { return &Docs{pkgs: map[string]*doc.Package{}} }

// Err reports the packages that could not be read, if any: their doc
// comments are missing from the schema.
func (d *Docs) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.errs) == 0 {
		return nil
	}
	msgs := make([]string, len(d.errs))
	for i, err := range d.errs {
		msgs[i] = err.Error()
	}
	return fmt.Errorf("reading doc comments: %s", strings.Join(msgs, "; "))
}

// Type is the doc comment of named type t.
func (d *Docs) Type(t reflect.Type) string {
	if dt := d.typ(t.PkgPath(), t.Name()); dt != nil {
		return describe(baseName(t.Name()), dt.Doc)
	}
	return ""
}

// Field is the doc comment of a field of struct t, or its line comment.
func (d *Docs) Field(t reflect.Type, field string) string {
	dt := d.typ(t.PkgPath(), t.Name())
	if dt == nil {
		return ""
	}
	for _, spec := range dt.Decl.Specs {
		ts, ok := spec.(*ast.TypeSpec)
		if !ok || ts.Name.Name != baseName(t.Name()) {
			continue
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return ""
		}
		for _, f := range st.Fields.List {
			for _, n := range f.Names {
				if n.Name != field {
					continue
				}
				if f.Doc != nil {
					return describeField(field, f.Doc.Text())
				}
				if f.Comment != nil {
					return describeField(field, f.Comment.Text())
				}
				return ""
			}
		}
	}
	return ""
}

// Func is the doc comment of a function or method by its runtime name:
// "example.com/pkg.Build", "example.com/pkg.(*T).method-fm" (a method
// value), "example.com/pkg.T.method". A closure has none.
func (d *Docs) Func(name string) string {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if name == "" || dot < 0 {
		return ""
	}
	pkgPath, rest := name[:slash+1+dot], name[slash+1+dot+1:]
	rest = strings.TrimSuffix(rest, "-fm")
	p := d.pkg(pkgPath)
	if p == nil {
		return ""
	}
	recv, fn, isMethod := strings.Cut(rest, ".")
	if !isMethod {
		for _, f := range p.Funcs {
			if f.Name == baseName(rest) {
				return describe(f.Name, f.Doc)
			}
		}
		for _, t := range p.Types { // constructors are listed under their type
			for _, f := range t.Funcs {
				if f.Name == baseName(rest) {
					return describe(f.Name, f.Doc)
				}
			}
		}
		return ""
	}
	recv = strings.TrimSuffix(strings.TrimPrefix(recv, "(*"), ")")
	if dt := d.typ(pkgPath, recv); dt != nil {
		for _, m := range dt.Methods {
			if m.Name == fn {
				return describe(m.Name, m.Doc)
			}
		}
	}
	return ""
}

func (d *Docs) typ(pkgPath, name string) *doc.Type {
	p := d.pkg(pkgPath)
	if p == nil {
		return nil
	}
	for _, t := range p.Types {
		if t.Name == baseName(name) {
			return t
		}
	}
	return nil
}

// pkg reads the package at import path pkgPath once.
func (d *Docs) pkg(pkgPath string) *doc.Package {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p, ok := d.pkgs[pkgPath]; ok {
		return p
	}
	p, err := readPackage(pkgPath)
	if err != nil {
		d.errs = append(d.errs, err)
	}
	d.pkgs[pkgPath] = p
	return p
}

func readPackage(pkgPath string) (*doc.Package, error) {
	out, err := exec.Command("go", "list", "-json=Dir,GoFiles,CgoFiles", pkgPath).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, fmt.Errorf("go list %s: %w", pkgPath, err)
	}
	var listed struct {
		Dir      string
		GoFiles  []string
		CgoFiles []string
	}
	if err := json.Unmarshal(out, &listed); err != nil {
		return nil, fmt.Errorf("go list %s: %w", pkgPath, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range append(listed.GoFiles, listed.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(listed.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, pkgPath, doc.AllDecls|doc.PreserveAST)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkgPath, err)
	}
	return p, nil
}

// baseName is a type's name without type arguments: Box for Box[int].
func baseName(name string) string {
	base, _, _ := strings.Cut(name, "[")
	return base
}

// describe turns the doc comment of the Go declaration name into a
// description. A comment that starts with the name, as Go's convention
// has it, loses it, and an "is" or "are" after it: "ContentType is the
// media type of an object" describes the type as "The media type of an
// object", "BuildSite builds a site" the component as "Builds a site".
func describe(name, comment string) string {
	s := text(comment)
	rest, ok := strings.CutPrefix(s, name+" ")
	if !ok {
		return s
	}
	for _, verb := range []string{"is ", "are "} {
		rest = strings.TrimPrefix(rest, verb)
	}
	if rest == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[size:]
}

// describeField is describe for a field's comment, which often starts
// with a noun that is also the field's name ("Size of the content"): only
// "Name is" or "Name are" is dropped.
func describeField(name, comment string) string {
	s := text(comment)
	for _, verb := range []string{" is ", " are "} {
		if strings.HasPrefix(s, name+verb) {
			return describe(name, s)
		}
	}
	return s
}

// text turns a doc comment into a description: each paragraph on one
// line, paragraphs apart, indented (code) lines kept as they are.
func text(comment string) string {
	var paras []string
	for _, para := range strings.Split(strings.TrimSpace(comment), "\n\n") {
		lines := strings.Split(para, "\n")
		code := false
		for _, l := range lines {
			code = code || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "  ")
		}
		if code {
			paras = append(paras, para)
			continue
		}
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		paras = append(paras, strings.Join(lines, " "))
	}
	return strings.TrimSpace(strings.Join(paras, "\n\n"))
}
