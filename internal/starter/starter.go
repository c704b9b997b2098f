// Package starter writes a new package module: a component with a child
// custom resource and a method, the plugin, the schema generator, unit
// tests, a TypeScript example with a Go test that runs it, and an
// end-to-end script on package polytest. The files are the templates in
// template/, with PKG in paths and [[.Pkg]], [[.Module]] in contents
// replaced.
package starter

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"text/template"
)

//go:embed all:template
var templates embed.FS

// Options describe the package to create.
type Options struct {
	// Pkg is the Pulumi package name, also the Go package's.
	Pkg string
	// Module is the Go module path (default example.com/<pkg>).
	Module string
	// Replace, if set, is a local polyhost checkout that go.mod's replace
	// directive points at; otherwise Version, if set, is required.
	Replace, Version string
}

var pkgName = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// Create writes the package into dir, which must not exist or be empty.
func Create(dir string, o Options) error {
	if !pkgName.MatchString(o.Pkg) {
		return fmt.Errorf("package name %q: want lower-case letters and digits, starting with a letter", o.Pkg)
	}
	if o.Module == "" {
		o.Module = "example.com/" + o.Pkg
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	data := struct{ Pkg, Module, Replace, Version, GoVersion string }{
		o.Pkg, o.Module, o.Replace, o.Version, goVersion(),
	}
	return fs.WalkDir(templates, "template", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := templates.ReadFile(p)
		if err != nil {
			return err
		}
		tmpl, err := template.New(p).Delims("[[", "]]").Option("missingkey=error").Parse(string(src))
		if err != nil {
			return fmt.Errorf("template %s: %w", p, err)
		}
		var out bytes.Buffer
		if err := tmpl.Execute(&out, data); err != nil {
			return fmt.Errorf("template %s: %w", p, err)
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, "template/"), ".tmpl")
		rel = strings.ReplaceAll(rel, "PKG", o.Pkg)
		if path.Base(rel) == "gitignore" {
			rel = path.Join(path.Dir(rel), ".gitignore")
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, out.Bytes(), 0o644)
	})
}

// Finish runs go mod tidy and go generate ./... in the package Create
// wrote, as polyup new does, with the caller's Go environment (its module
// proxy among it); their output goes to log.
func Finish(dir string, log io.Writer) error {
	for _, args := range [][]string{{"mod", "tidy"}, {"generate", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, log, log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: go %s: %w", dir, strings.Join(args, " "), err)
		}
	}
	return nil
}

// goVersion is the go directive for go.mod: the Go that built this
// program, which is at least what polyhost needs.
func goVersion() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	if i := strings.IndexAny(v, " -+"); i >= 0 {
		v = v[:i]
	}
	return v
}
