package polyup

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"

	"github.com/polyhost/polyhost/internal/starter"
)

const newUsage = `usage: polyup new [flags] <pkg> [dir]

Creates a Pulumi package module in dir (default ./<pkg>): a component with a
child custom resource and a method, the provider plugin, the schema written
from the Go types by go generate, unit tests, a TypeScript example with a Go
test that runs it on the embedded engine, and an end-to-end testscript
(testdata/example.txtar) that runs a Go program on the embedded engine and
under the pulumi CLI. Then runs go mod tidy and go generate there. Its
README.md says what to do next.

Flags:
`

// runNew is `polyup new`.
func runNew(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("polyup new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, newUsage); fs.PrintDefaults() }
	module := fs.String("module", "", "the Go module `path` (default example.com/<pkg>)")
	replace := fs.String("replace", "", "a local polyhost checkout `dir` for go.mod's replace directive")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return errors.New("want a package name and at most one directory")
	}
	pkg, dir := fs.Arg(0), fs.Arg(0)
	if fs.NArg() == 2 {
		dir = fs.Arg(1)
	}
	o := starter.Options{Pkg: pkg, Module: *module, Version: ownVersion()}
	if *replace != "" {
		abs, err := filepath.Abs(*replace)
		if err != nil {
			return err
		}
		o.Replace = abs
	}
	if err := starter.Create(dir, o); err != nil {
		return err
	}
	if err := starter.Finish(dir, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Created the %s package in %s; see %s.\n", pkg, dir, filepath.Join(dir, "README.md"))
	return nil
}

// ownVersion is polyhost's version when polyup was installed with
// go install ...@version, else empty (go mod tidy then picks the latest).
func ownVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != "github.com/polyhost/polyhost" || info.Main.Version == "(devel)" {
		return ""
	}
	return info.Main.Version
}
