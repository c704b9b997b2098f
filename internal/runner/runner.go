package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/internal/engine"
)

// ForDir reads dir/Pulumi.yaml (or Pulumi.yml) and returns the runner for its
// runtime: go, nodejs or python, given as a string or as {name, options}.
// It honours `main` and the runtime options the real hosts read (nodejs:
// typescript, tsconfig, nodeargs; python: virtualenv).
func ForDir(dir string) (engine.Program, error) {
	p, err := readProject(dir)
	if err != nil {
		return nil, err
	}
	prog, err := forRuntime(p.runtime, p.spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.file, err)
	}
	return prog, nil
}

// project is what a Pulumi.yaml says about running its program.
type project struct {
	file    string // the Pulumi.yaml read
	runtime string
	spec    spec
}

// readProject reads dir/Pulumi.yaml (or Pulumi.yml): the runtime, its
// options and `main`.
func readProject(dir string) (project, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return project{}, err
	}
	file, data, err := readProjectFile(root)
	if err != nil {
		return project{}, err
	}
	var proj struct {
		Main    string    `yaml:"main"`
		Runtime yaml.Node `yaml:"runtime"`
	}
	if err := yaml.Unmarshal(data, &proj); err != nil {
		return project{}, fmt.Errorf("%s: %w", file, err)
	}
	name, opts, err := parseRuntime(&proj.Runtime)
	if err != nil {
		return project{}, fmt.Errorf("%s: %w", file, err)
	}
	s, err := newSpec(root, proj.Main, opts)
	if err != nil {
		return project{}, fmt.Errorf("%s: %w", file, err)
	}
	return project{file: file, runtime: name, spec: s}, nil
}

// ForProgram returns the runner for a program the way a language host gets
// it from the CLI's ProgramInfo: the runtime, the project root (where
// Pulumi.yaml is), the program directory, the entry point relative to it
// ("." for the directory) and Pulumi.yaml's runtime options.
func ForProgram(runtime, root, programDir, entry string, opts map[string]any) (engine.Program, error) {
	if entry == "" {
		entry = "."
	}
	return forRuntime(runtime, spec{root: root, pwd: programDir, entry: entry, opts: opts})
}

func forRuntime(name string, s spec) (engine.Program, error) {
	switch name {
	case "go":
		return &goProgram{spec: s}, nil
	case "nodejs":
		return &nodeProgram{spec: s}, nil
	case "python":
		return &pythonProgram{spec: s}, nil
	case "yaml":
		return nil, errors.New("runtime yaml: YAML programs need the real pulumi CLI (its YAML language host); the embedded engine runs go, nodejs and python")
	default:
		return nil, fmt.Errorf("unsupported runtime %q (supported: go, nodejs, python)", name)
	}
}

// Go returns a runner for the Go program in dir: it is built with `go build`
// once per directory content within this process and run with the PULUMI_*
// environment of pulumi-language-go.
func Go(dir string) engine.Program { return &goProgram{spec: mustSpec(dir)} }

// NodeJS returns a runner for the Node.js program in dir, started as
// `node @pulumi/pulumi/cmd/run --monitor ... .` like pulumi-language-nodejs,
// with TypeScript on (ts-node), as the real host defaults to.
func NodeJS(dir string) engine.Program { return &nodeProgram{spec: mustSpec(dir)} }

// Python returns a runner for the Python program in dir (a __main__.py),
// started by a copy of pulumi-language-python-exec in the test virtualenv.
func Python(dir string) engine.Program { return &pythonProgram{spec: mustSpec(dir)} }

// spec locates a program the way the engine's ProgramInfo does: root is the
// Pulumi.yaml directory, pwd the program directory (root, or `main` if it is
// a directory, or main's parent) and entry "." or main's base name.
type spec struct {
	root, pwd, entry string
	opts             map[string]any
}

func mustSpec(dir string) spec {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	return spec{root: abs, pwd: abs, entry: "."}
}

func newSpec(root, main string, opts map[string]any) (spec, error) {
	s := spec{root: root, pwd: root, entry: ".", opts: opts}
	if main == "" {
		return s, nil
	}
	if !filepath.IsAbs(main) {
		main = filepath.Join(root, main)
	}
	fi, err := os.Stat(main)
	if err != nil {
		return s, fmt.Errorf("project 'main' could not be read: %w", err)
	}
	if fi.IsDir() {
		s.pwd = main
	} else {
		s.pwd, s.entry = filepath.Dir(main), filepath.Base(main)
	}
	return s, nil
}

// rootFor is the root directory passed to the program: the engine's Dir when
// it gives one, else the directory the runner was made for.
func (s spec) rootFor(info engine.RunInfo) string {
	if info.Dir == "" {
		return s.root
	}
	if abs, err := filepath.Abs(info.Dir); err == nil {
		return abs
	}
	return info.Dir
}

func (s spec) stringOpt(name string) (string, error) {
	v, ok := s.opts[name]
	if !ok || v == nil {
		return "", nil
	}
	str, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("runtime option %s must be a string, got %T", name, v)
	}
	return str, nil
}

func (s spec) boolOpt(name string, def bool) (bool, error) {
	v, ok := s.opts[name]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return def, fmt.Errorf("runtime option %s must be a boolean, got %T", name, v)
	}
	return b, nil
}

func readProjectFile(root string) (string, []byte, error) {
	for _, name := range []string{"Pulumi.yaml", "Pulumi.yml"} {
		file := filepath.Join(root, name)
		data, err := os.ReadFile(file)
		if err == nil {
			return file, data, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", nil, err
		}
	}
	return "", nil, fmt.Errorf("no Pulumi.yaml in %s", root)
}

func parseRuntime(n *yaml.Node) (string, map[string]any, error) {
	switch n.Kind {
	case 0:
		return "", nil, errors.New("no runtime given")
	case yaml.ScalarNode:
		var name string
		if err := n.Decode(&name); err != nil {
			return "", nil, fmt.Errorf("runtime: %w", err)
		}
		return strings.TrimSpace(name), nil, nil
	case yaml.MappingNode:
		var rt struct {
			Name    string         `yaml:"name"`
			Options map[string]any `yaml:"options"`
		}
		if err := n.Decode(&rt); err != nil {
			return "", nil, fmt.Errorf("runtime: %w", err)
		}
		if rt.Name == "" {
			return "", nil, errors.New("runtime: missing name")
		}
		return strings.TrimSpace(rt.Name), rt.Options, nil
	default:
		return "", nil, errors.New("runtime must be a string or a mapping with a name")
	}
}
