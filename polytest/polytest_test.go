package polytest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) { Main(m, nil) }

func TestScripts(t *testing.T) {
	testscript.Run(t, Params(t, "testdata", WithPlugins("testdata/pulumi-resource-tiny")))
}

// Plugins are found where authors put them, each built once per test
// binary however many Params name it.
func TestPlugins(t *testing.T) {
	module := t.TempDir()
	files := map[string]string{
		"go.mod":                          "module example.com/m\n\ngo 1.21\n",
		"cmd/pulumi-resource-one/main.go": "package main\n\nfunc main() {}\n",
		"provider/cmd/pulumi-resource-two/main.go": "package main\n\nfunc main() {}\n",
		"cmd/pulumi-resource-empty/README.md":      "no Go code\n",
		"testdata/pulumi-resource-skip/main.go":    "package main\n\nfunc main() {}\n",
		".hidden/pulumi-resource-skip/main.go":     "package main\n\nfunc main() {}\n",
		"nested/go.mod":                            "module example.com/nested\n",
		"nested/pulumi-resource-skip/main.go":      "package main\n\nfunc main() {}\n",
	}
	for name, body := range files {
		p := filepath.Join(module, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := findPlugins(module)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(module, "cmd/pulumi-resource-one"), filepath.Join(module, "provider/cmd/pulumi-resource-two")}
	if !slices.Equal(found, want) {
		t.Fatalf("found %q, want %q", found, want)
	}
	if _, err := findPlugins(filepath.Join(module, "cmd", "pulumi-resource-empty")); err == nil || !strings.Contains(err.Error(), "polytest.WithPlugins") {
		t.Errorf("a module without plugins: %v, want an error naming WithPlugins", err)
	}

	first, second := t.TempDir(), t.TempDir()
	if err := buildPlugins(found, first); err != nil {
		t.Fatal(err)
	}
	built := len(builds.bins)
	if err := buildPlugins(found[:1], second); err != nil {
		t.Fatal(err)
	}
	if len(builds.bins) != built {
		t.Errorf("%d builds after the second Params, want %d: each plugin once", len(builds.bins), built)
	}
	a, errA := os.Stat(filepath.Join(first, "pulumi-resource-one"))
	b, errB := os.Stat(filepath.Join(second, "pulumi-resource-one"))
	if errA != nil || errB != nil || !os.SameFile(a, b) && a.Size() != b.Size() {
		t.Errorf("the second Params got another binary: %v %v", errA, errB)
	}
	if _, err := os.Stat(filepath.Join(second, "pulumi-resource-two")); err == nil {
		t.Errorf("the second Params got a plugin it did not name")
	}
	if err := buildPlugins([]string{filepath.Join(module, "cmd/pulumi-resource-empty")}, t.TempDir()); err == nil {
		t.Errorf("building a folder without Go code: no error")
	}
}

// [pulumi] looks on PATH and in WithPath's folders; with
// POLYHOST_REQUIRE_PULUMI=1 its absence is an error.
func TestPulumiCondition(t *testing.T) {
	bin := t.TempDir()
	p := Params(t, "testdata", WithPlugins(), WithPath(bin))
	t.Setenv("PATH", t.TempDir())
	t.Setenv(EnvRequirePulumi, "")
	if ok, err := p.Condition("pulumi"); ok || err != nil {
		t.Errorf("[pulumi] with no CLI: %v, %v; want false", ok, err)
	}
	t.Setenv(EnvRequirePulumi, "1")
	if _, err := p.Condition("pulumi"); err == nil || !strings.Contains(err.Error(), EnvRequirePulumi+"=1") {
		t.Errorf("[pulumi] with no CLI and %s=1: %v, want an error", EnvRequirePulumi, err)
	}
	if err := os.WriteFile(filepath.Join(bin, "pulumi"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if ok, err := p.Condition("pulumi"); !ok || err != nil {
		t.Errorf("[pulumi] with the CLI in a WithPath folder: %v, %v; want true", ok, err)
	}
	if _, err := p.Condition("nosuch"); err == nil {
		t.Errorf("an unknown condition: no error")
	}
}

// WithCondition answers what the kit does not know, and only that.
func TestAuthorCondition(t *testing.T) {
	asked := []string{}
	p := Params(t, "testdata", WithPlugins(), WithCondition(func(cond string) (bool, error) {
		asked = append(asked, cond)
		return cond == "cloud", nil
	}))
	if ok, err := p.Condition("cloud"); !ok || err != nil {
		t.Errorf("[cloud]: %v, %v; want the author's true", ok, err)
	}
	if ok, err := p.Condition("offline"); ok || err != nil {
		t.Errorf("[offline]: %v, %v; want the author's false", ok, err)
	}
	if _, err := p.Condition("node"); err != nil {
		t.Errorf("[node]: %v", err)
	}
	if !slices.Equal(asked, []string{"cloud", "offline"}) {
		t.Errorf("the author's function was asked %q, want only the conditions the kit does not know", asked)
	}
}
