package polyup

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"

	"github.com/polyhost/polyhost/compat"
)

const compatUsage = `usage: polyup compat [flags] OLD NEW

Compares two schemas of a package, the last release's (OLD) and the current
one (NEW), and lists each change: breaking (programs or stacks written for
OLD fail), dangerous (they may behave differently) or safe, with whom it
hits. A breaking change fails the check unless NEW's version is a new major
version (for 0.x, a new minor: 0.1.x to 0.2.0) or an allow list
acknowledges it. Flags may come before or after OLD and NEW.

NEW is a schema file, YAML or JSON. OLD is a schema file, or a git ref of
the repository holding NEW (a tag such as v0.1.0): NEW's file as it was
there; REF:FILE names another file at that ref (FILE as NEW is named).

The versions are the schemas' own; where OLD's schema has none and OLD is
a release tag (v1.2.3), the tag's. -old-version and -new-version give them.

The allow list (-allow) is a YAML or JSON list of acknowledged changes,
each with a token, a reason, and optionally a path and a kind as the
report names them:

  - token: greet:index:Greeting
    path: inputs.salutation
    reason: renamed to word; the 0.1.9 release notes announced it

An entry without a reason is an error; one that matches no change is
reported.

Exit status: 0 compatible, 1 breaking (the release needs a new major
version or an allow-list entry), 2 the check could not run (a usage error,
a missing file or ref, a schema or allow list that does not parse).

Flags:
`

// exitError is an error with the exit status Main returns for it.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// cannotRun is an error that kept the check from running: exit status 2.
func cannotRun(err error) error { return &exitError{code: 2, err: err} }

// runCompat is `polyup compat`.
func runCompat(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("polyup compat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, compatUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the report as JSON, for tools")
	asMarkdown := fs.Bool("markdown", false, "print the report as Markdown, for a pull-request comment")
	allowFile := fs.String("allow", "", "allow list `file` of acknowledged changes, each with a reason")
	oldVersion := fs.String("old-version", "", "OLD's `version` (default: its schema's, else its release tag's)")
	newVersion := fs.String("new-version", "", "NEW's `version` (default: its schema's)")
	// Flags may come before or after OLD and NEW.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return cannotRun(err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(pos) != 2:
		fs.Usage()
		return cannotRun(errors.New("want OLD and NEW"))
	case *asJSON && *asMarkdown:
		return cannotRun(errors.New("-json and -markdown: choose one"))
	}
	for _, v := range []string{*oldVersion, *newVersion} {
		if _, err := semver.ParseTolerant(v); v != "" && err != nil {
			return cannotRun(fmt.Errorf("version %q: %v", v, err))
		}
	}
	var allow []compat.Allow
	if *allowFile != "" {
		src, err := os.ReadFile(*allowFile)
		if err != nil {
			return cannotRun(err)
		}
		if allow, err = compat.ReadAllowList(src); err != nil {
			return cannotRun(fmt.Errorf("allow list %s: %w", *allowFile, err))
		}
	}
	ctx := context.Background()
	newFile := pos[1]
	cur, err := os.ReadFile(newFile)
	if err != nil {
		return cannotRun(err)
	}
	old, err := readOld(ctx, pos[0], newFile)
	if err != nil {
		return cannotRun(err)
	}
	report, err := compat.CompareNamed("OLD "+old.name, old.src, "NEW "+newFile, cur)
	if err != nil {
		return cannotRun(err)
	}
	if report.OldVersion == "" {
		report.OldVersion = old.version
	}
	if *oldVersion != "" {
		report.OldVersion = *oldVersion
	}
	if *newVersion != "" {
		report.NewVersion = *newVersion
	}
	report.Acknowledge(allow)
	switch {
	case *asJSON:
		_, err = stdout.Write(report.JSON())
	case *asMarkdown:
		err = report.WriteMarkdown(stdout)
	default:
		err = report.WriteText(stdout)
	}
	if err != nil {
		return cannotRun(err)
	}
	for _, a := range report.Unused {
		fmt.Fprintf(stderr, "warning: allow list %s: an entry matches no change: %s\n", *allowFile, a)
	}
	if err := report.Err(); err != nil {
		return &exitError{code: 1, err: err}
	}
	return nil
}

// oldSchema is OLD read: its source, its name in errors, and the version
// of the release tag it was read at, if any.
type oldSchema struct {
	src           []byte
	name, version string
}

// readOld reads OLD: a file, else REF (NEW's file at that git ref) or
// REF:FILE, with git run where NEW is, so that it works from any
// directory.
func readOld(ctx context.Context, old, newFile string) (oldSchema, error) {
	if st, err := os.Stat(old); err == nil && !st.IsDir() {
		src, err := os.ReadFile(old)
		return oldSchema{src: src, name: old}, err
	}
	ref, file := old, newFile
	if r, f, ok := strings.Cut(old, ":"); ok && r != "" && f != "" {
		ref, file = r, f
	}
	// FILE relative to NEW's directory, which git runs in.
	dir := filepath.Dir(newFile)
	absDir, err1 := filepath.Abs(dir)
	absFile, err2 := filepath.Abs(file)
	rel, err3 := filepath.Rel(absDir, absFile)
	if err := errors.Join(err1, err2, err3); err != nil {
		return oldSchema{}, fmt.Errorf("OLD %q: %w", old, err)
	}
	src, err := compat.ReadAt(ctx, dir, ref, rel)
	if err != nil {
		return oldSchema{}, fmt.Errorf("OLD %q is no file, and as a git ref: %w", old, err)
	}
	s := oldSchema{src: src, name: file + " at " + ref}
	// A release tag (v1.2.3, or a module's sdk/v1.2.3) gives the version.
	tag := ref[strings.LastIndex(ref, "/")+1:]
	if v, err := semver.Parse(strings.TrimPrefix(tag, "v")); err == nil && strings.HasPrefix(tag, "v") {
		s.version = v.String()
	}
	return s, nil
}
