package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/blang/semver"

	"github.com/polyhost/polyhost/internal/engine"
)

// goModule is what `go list -m -json` and `go mod download -json` say of a
// module that matters here.
type goModule struct {
	Path, Version, Dir string
}

// goPackages lists a Go program's resource packages as pulumi-language-go's
// GetRequiredPackages does (sdk/go/pulumi-language-go/main.go): the go.mod
// of the module holding dir (`go list -m` with GOWORK=off), every module it
// requires, located with `go list -m -json` in the module's directory under
// the process's environment (GOFLAGS, GOWORK), from vendor/ when the module
// vendors, else downloading what has no directory yet (`go mod download`).
// A module counts when its pulumi-plugin.json (at its root, in go/, go/*/
// or */, the first found) says "resource": true. Like the host it is
// lenient: when the go commands fail the program reports no packages, and a
// module whose file or version cannot be read is skipped.
func goPackages(ctx context.Context, dir string) ([]engine.Package, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("go program in %s: %w", dir, err)
	}
	pkgs, err := goModulePackages(ctx, gobin, dir)
	if err != nil {
		// The host logs this (at -v=5) and reports no packages.
		if verbose() {
			fmt.Fprintf(os.Stderr, "polyhost runner: go program in %s: no packages reported: %v\n", dir, err)
		}
		return nil, nil
	}
	return pkgs, nil
}

// goModulePackages does goPackages' work, failing where the host gives up.
func goModulePackages(ctx context.Context, gobin, dir string) ([]engine.Package, error) {
	gomod, err := goCommand(ctx, gobin, dir, []string{"GOWORK=off"}, "list", "-m", "-f", "{{.GoMod}}")
	if err != nil {
		return nil, err
	}
	modFile := string(bytes.TrimSpace(gomod))
	if modFile == "" {
		return nil, fmt.Errorf("no go.mod file found for %s", dir)
	}
	modDir := filepath.Dir(modFile)
	out, err := goCommand(ctx, gobin, modDir, nil, "mod", "edit", "-json", modFile)
	if err != nil {
		return nil, err
	}
	var parsed struct {
		Require []struct{ Path string }
	}
	if err := json.Unmarshal(out, &parsed); err != nil {
		return nil, fmt.Errorf("%s: %w", modFile, err)
	}
	var paths []string
	for _, r := range parsed.Require {
		paths = append(paths, r.Path)
	}
	mods, err := goModuleDirs(ctx, gobin, modDir, paths)
	if err != nil {
		return nil, err
	}
	var pkgs []engine.Package
	for _, m := range mods {
		if pkg, ok := goPackage(m); ok {
			pkgs = append(pkgs, pkg)
		}
	}
	return pkgs, nil
}

// goModuleDirs locates the source of the modules at paths, dropping those it
// cannot find.
func goModuleDirs(ctx context.Context, gobin, modDir string, paths []string) ([]goModule, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	mods, err := goModuleList(ctx, gobin, modDir, append([]string{"list", "-m", "-json"}, paths...))
	if err != nil {
		return nil, err
	}
	vendor := filepath.Join(modDir, "vendor")
	_, statErr := os.Stat(vendor)
	vendored := statErr == nil
	var missing []string
	for i, m := range mods {
		if m.Dir != "" {
			continue
		}
		if vendored {
			if _, err := os.Stat(filepath.Join(vendor, m.Path)); err == nil {
				mods[i].Dir = filepath.Join(vendor, m.Path)
			}
			continue // no downloads in vendor mode
		}
		missing = append(missing, m.Path)
	}
	if len(missing) > 0 {
		got, err := goModuleList(ctx, gobin, modDir, append([]string{"mod", "download", "-json"}, missing...))
		if err != nil {
			return nil, err
		}
		dirs := map[string]string{}
		for _, m := range got {
			dirs[m.Path] = m.Dir
		}
		for i, m := range mods {
			if m.Dir == "" {
				mods[i].Dir = dirs[m.Path]
			}
		}
	}
	found := mods[:0]
	for _, m := range mods {
		if m.Dir != "" {
			found = append(found, m)
		}
	}
	return found, nil
}

// goModuleList runs a go command printing a stream of module JSON objects.
func goModuleList(ctx context.Context, gobin, dir string, args []string) ([]goModule, error) {
	out, err := goCommand(ctx, gobin, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	var mods []goModule
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m goModule
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("go %s: %w", strings.Join(args[:2], " "), err)
		}
		mods = append(mods, m)
	}
	return mods, nil
}

// goCommand runs go in dir with the process environment plus env and
// returns its stdout.
func goCommand(ctx context.Context, gobin, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s in %s: %w\n%s", strings.Join(args, " "), dir, err, lastLines(stderr.String(), tailLines))
	}
	return out, nil
}

// goPackage reads a module's pulumi-plugin.json: the name is its name, else
// the part of the module path's third element after the first "-"
// (github.com/pulumi/pulumi-aws/sdk => aws; the host panics where there is
// none, this skips the module); the version its version, else the module's,
// a pseudo-version taken down to the release before it.
func goPackage(m goModule) (engine.Package, bool) {
	info, ok := goPluginJSON(m.Dir)
	if !ok || !info.Resource {
		return engine.Package{}, false
	}
	name := info.Name
	if name == "" {
		parts := strings.Split(m.Path, "/")
		if len(parts) < 3 {
			return engine.Package{}, false
		}
		_, after, found := strings.Cut(parts[2], "-")
		if !found || after == "" {
			return engine.Package{}, false
		}
		name = after
	}
	version := m.Version
	if info.Version != "" {
		version = info.Version
	}
	version, ok = goPluginVersion(version)
	if !ok {
		return engine.Package{}, false
	}
	return engine.Package{Name: name, Version: version, PluginDownloadURL: info.Server}, true
}

// pluginJSON is the part of a pulumi-plugin.json that names a package.
type pluginJSON struct {
	Resource              bool
	Name, Version, Server string
}

// goPluginJSON finds a module's pulumi-plugin.json where the host looks, in
// its order; a file that does not parse ends the search, as with the host.
func goPluginJSON(dir string) (pluginJSON, bool) {
	paths := []string{
		filepath.Join(dir, "pulumi-plugin.json"),
		filepath.Join(dir, "go", "pulumi-plugin.json"),
	}
	for _, pattern := range []string{filepath.Join(dir, "go", "*", "pulumi-plugin.json"), filepath.Join(dir, "*", "pulumi-plugin.json")} {
		m, _ := filepath.Glob(pattern)
		paths = append(paths, m...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return pluginJSON{}, false
		}
		var info pluginJSON
		if json.Unmarshal(data, &info) != nil {
			return pluginJSON{}, false
		}
		return info, true
	}
	return pluginJSON{}, false
}

// goPseudoVersion matches Go's pseudo-versions (cmd/go's modfetch/pseudo.go).
var goPseudoVersion = regexp.MustCompile(`^v[0-9]+\.(0\.0-|\d+\.\d+-([^+]*\.)?0\.)\d{14}-[A-Za-z0-9]+(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// goPluginVersion is the host's normalizeVersion: a version must parse
// (tolerantly) as semver and is kept as written, except a pseudo-version,
// which becomes vMAJOR.MINOR.PATCH-1 (the tag it follows; none for v0.0.0).
func goPluginVersion(version string) (string, bool) {
	v, err := semver.ParseTolerant(version)
	if err != nil {
		return "", false
	}
	if strings.Count(version, "-") >= 2 && goPseudoVersion.MatchString(version) {
		if v.Major == 0 && v.Minor == 0 && v.Patch == 0 {
			return "", false
		}
		patch := v.Patch
		if patch > 0 {
			patch--
		}
		return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, patch), true
	}
	return version, true
}
