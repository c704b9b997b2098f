package polyup

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/polyhost/polyhost/compat"
)

const compatUsage = `usage: polyup compat [-json] OLD NEW

Compares two schemas of a package, the last release's (OLD) and the current
one (NEW), and lists each change: breaking (programs or stacks written for
OLD fail), dangerous (they may behave differently) or safe, with whom it
hits. It exits 1 on a breaking change unless NEW's version is a new major
version (for 0.x, a new minor: 0.1.x to 0.2.0).

NEW is a schema file, YAML or JSON. OLD is a schema file, or a git ref of
the repository holding NEW (a tag such as v0.1.0): NEW's file as it was
there; REF:FILE names another file at that ref.

Flags:
`

// runCompat is `polyup compat`.
func runCompat(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("polyup compat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, compatUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the report as JSON, for tools")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errors.New("want OLD and NEW")
	}
	ctx := context.Background()
	newFile := fs.Arg(1)
	cur, err := os.ReadFile(newFile)
	if err != nil {
		return err
	}
	old, err := readOld(ctx, fs.Arg(0), newFile)
	if err != nil {
		return err
	}
	report, err := compat.Compare(old, cur)
	if err != nil {
		return err
	}
	if *asJSON {
		_, err = stdout.Write(report.JSON())
	} else {
		err = report.WriteText(stdout)
	}
	if err != nil {
		return err
	}
	return report.Err()
}

// readOld reads OLD: a file, else REF (NEW's file at that git ref) or
// REF:FILE.
func readOld(ctx context.Context, old, newFile string) ([]byte, error) {
	if st, err := os.Stat(old); err == nil && !st.IsDir() {
		return os.ReadFile(old)
	}
	ref, file := old, newFile
	if r, f, ok := strings.Cut(old, ":"); ok && r != "" && f != "" {
		ref, file = r, f
	}
	src, err := compat.ReadAt(ctx, ".", ref, file)
	if err != nil {
		return nil, fmt.Errorf("OLD %q is no file, and as a git ref: %w", old, err)
	}
	return src, nil
}
