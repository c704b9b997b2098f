package runner

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polyhost/polyhost/internal/engine"
)

// RequiredPackages lists the provider packages a program uses, as its
// language host's GetRequiredPackages finds them; the engine versions
// default providers from them. The runtime (and `main`, which moves the
// program directory) come from dir's Pulumi.yaml; without one, dir is taken
// for a Node program. See ProgramPackages.
func RequiredPackages(dir string) ([]engine.Package, error) {
	p, err := readProject(dir)
	if err != nil {
		root, absErr := filepath.Abs(dir)
		if absErr == nil && noProjectFile(root) {
			return ProgramPackages(context.Background(), "nodejs", root, root, nil)
		}
		return nil, err
	}
	return ProgramPackages(context.Background(), p.runtime, p.spec.root, p.spec.pwd, p.spec.opts)
}

// ProgramPackages lists the provider packages of the program in programDir
// (root holding Pulumi.yaml, opts its runtime options) the way
// pulumi-language-<runtime>'s GetRequiredPackages does, sorted by name and
// version:
//
//   - nodejs: every package under programDir/node_modules (nested ones too)
//     whose package.json has a "pulumi" section with "resource": true, as
//     generated SDKs do; a program without an install of its own gets its
//     `file:` dependencies linked there first, as a run would link them;
//   - go: the modules the program's go.mod requires whose pulumi-plugin.json
//     says "resource": true (goPackages);
//   - python: the distributions installed for the program's interpreter with
//     such a pulumi-plugin.json, or named pulumi-* (pythonPackages).
//
// Other runtimes report none.
func ProgramPackages(ctx context.Context, runtime, root, programDir string, opts map[string]any) ([]engine.Package, error) {
	var out []engine.Package
	var err error
	switch runtime {
	case "nodejs":
		if err = linkLocalNodePackages(programDir, os.Getenv); err == nil {
			err = nodePackages(filepath.Join(programDir, "node_modules"), &out, map[string]bool{})
		}
	case "go":
		out, err = goPackages(ctx, programDir)
	case "python":
		out, err = pythonPackages(ctx, &pythonProgram{spec: spec{root: root, pwd: programDir, entry: ".", opts: opts}})
	}
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Version < out[j].Version
	})
	return out, nil
}

// noProjectFile reports whether root has neither Pulumi.yaml nor Pulumi.yml.
func noProjectFile(root string) bool {
	for _, name := range []string{"Pulumi.yaml", "Pulumi.yml"} {
		if _, err := os.Lstat(filepath.Join(root, name)); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	return true
}

// nodePackages reads the packages of one node_modules directory.
func nodePackages(nm string, out *[]engine.Package, seen map[string]bool) error {
	real, err := filepath.EvalSymlinks(nm)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if seen[real] {
		return nil
	}
	seen[real] = true
	entries, err := os.ReadDir(nm)
	if err != nil {
		return err
	}
	var dirs []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if strings.HasPrefix(name, "@") {
			scoped, err := os.ReadDir(filepath.Join(nm, name))
			if err != nil {
				continue // not a directory
			}
			for _, s := range scoped {
				dirs = append(dirs, filepath.Join(nm, name, s.Name()))
			}
			continue
		}
		dirs = append(dirs, filepath.Join(nm, name))
	}
	for _, d := range dirs {
		if pkg, ok := nodePackage(filepath.Join(d, "package.json")); ok {
			*out = append(*out, pkg)
		}
		if err := nodePackages(filepath.Join(d, "node_modules"), out, seen); err != nil {
			return err
		}
	}
	return nil
}

// nodePackage reads a package.json: the plugin name is pulumi.name, else
// the package name without "@pulumi/" (or "@"); the version pulumi.version,
// else the package's; the download URL pulumi.server. Like the host, it
// skips what it cannot read.
func nodePackage(path string) (engine.Package, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return engine.Package{}, false
	}
	var info struct {
		Name, Version string
		Pulumi        struct {
			Resource              bool
			Name, Version, Server string
		}
	}
	if json.Unmarshal(data, &info) != nil || !info.Pulumi.Resource {
		return engine.Package{}, false
	}
	pkg := engine.Package{Name: info.Pulumi.Name, Version: info.Pulumi.Version, PluginDownloadURL: info.Pulumi.Server}
	if pkg.Name == "" {
		pkg.Name = strings.TrimPrefix(strings.TrimPrefix(info.Name, "@pulumi/"), "@")
	}
	if pkg.Version == "" {
		pkg.Version = info.Version
	}
	return pkg, pkg.Name != ""
}
