package starter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateRefuses(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dir, pkg, want string
	}{
		{t.TempDir(), "Greet", `package name "Greet": want lower-case letters and digits`},
		{t.TempDir(), "my-pkg", `package name "my-pkg"`},
		{full, "greet", full + " is not empty"},
	}
	for _, c := range cases {
		if err := Create(c.dir, Options{Pkg: c.pkg}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Create(%s, %q) = %v, want %q", c.dir, c.pkg, err, c.want)
		}
	}
}

// Every template is rendered: paths and contents name the package and the
// module, and no placeholder is left.
func TestCreateRenders(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hello")
	if err := Create(dir, Options{Pkg: "hello", Module: "example.org/x/hello", Replace: "/src/polyhost"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"go.mod", "hello.go", "hello_test.go", "example_test.go", ".gitignore",
		"cmd/pulumi-resource-hello/main.go", "cmd/gen-schema/main.go", "example/index.ts",
		"scripts_test.go", "testdata/example.txtar"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(data); strings.Contains(s, "[[") || strings.Contains(s, "PKG") {
			t.Errorf("%s has a placeholder left:\n%s", f, s)
		}
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	for _, want := range []string{"module example.org/x/hello\n", "replace github.com/polyhost/polyhost => /src/polyhost\n"} {
		if !strings.Contains(string(mod), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
}

// The schema a new package's go generate writes is testdata/greet.yaml,
// which Pulumi's binder judges (tests/tools/langhost/binder): the package
// is created as polyup new creates it, on this checkout, with the Go
// environment the test runs in. go mod tidy may need modules that no build
// of this repository fetched (tests of dependencies' dependencies), so the
// module proxy must stay on: with GOPROXY=off this test passed only where
// the module cache happened to hold them.
func TestCreatedSchemaIsGolden(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "greet")
	if err := Create(dir, Options{Pkg: "greet", Replace: repo}); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if err := Finish(dir, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	got, err := os.ReadFile(filepath.Join(dir, "cmd", "pulumi-resource-greet", "schema.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "greet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("go generate wrote\n%s\nwant testdata/greet.yaml:\n%s", got, want)
	}
}
