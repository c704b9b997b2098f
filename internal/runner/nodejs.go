package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/polyhost/polyhost/internal/engine"
)

type nodeProgram struct{ spec spec }

func (p *nodeProgram) Run(ctx context.Context, info engine.RunInfo) error {
	typescript, err := p.spec.boolOpt("typescript", true)
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", p.spec.pwd, err)
	}
	tsconfig, err := p.spec.stringOpt("tsconfig")
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", p.spec.pwd, err)
	}
	nodeargs, err := p.spec.stringOpt("nodeargs")
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", p.spec.pwd, err)
	}
	runtimeArgs, err := splitArgs(nodeargs)
	if err != nil {
		return fmt.Errorf("nodejs program in %s: nodeargs: %w", p.spec.pwd, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", p.spec.pwd, err)
	}
	runPath, err := nodeRunScript(p.spec.pwd, os.Getenv)
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", p.spec.pwd, err)
	}
	cfg, err := nodeConfigJSON(info.Config)
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", p.spec.pwd, err)
	}

	// As pulumi-language-nodejs's constructArguments (no --sync: no invoke pipes).
	args := append(runtimeArgs, runPath)
	add := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	add("monitor", info.MonitorAddr)
	add("engine", info.EngineAddr)
	add("organization", info.Organization)
	add("project", info.Project)
	add("root-directory", p.spec.rootFor(info))
	add("stack", info.Stack)
	add("pwd", p.spec.pwd)
	if info.DryRun {
		args = append(args, "--dry-run")
	}
	add("parallel", strconv.Itoa(info.Parallel))
	args = append(args, p.spec.entry)

	// The run script copies its flags into PULUMI_NODEJS_* for other copies
	// of the SDK; drop inherited ones so nothing leaks in from our parent.
	env := environ([]string{"PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS"}, "PULUMI_NODEJS_")
	env = append(env,
		"PULUMI_CONFIG="+cfg,
		"PULUMI_CONFIG_SECRET_KEYS="+secretKeysJSON(info.SecretKeys))
	if typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}

	return launch{
		runtime: "nodejs",
		dir:     p.spec.pwd,
		cwd:     p.spec.pwd,
		path:    node,
		args:    args,
		env:     env,
		secrets: secretValues(info),
	}.run(ctx)
}

// nodeConfigJSON rewrites keys "ns:name" to "ns:config:name", as the real
// host does for older SDKs (current ones accept both).
func nodeConfigJSON(cfg map[string]string) (string, error) {
	out := make(map[string]string, len(cfg))
	for k, v := range cfg {
		ns, name, err := parseConfigKey(k)
		if err != nil {
			return "", err
		}
		out[ns+":config:"+name] = v
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// parseConfigKey accepts "ns:name" and "ns:config:name" (sdk config.ParseKey).
func parseConfigKey(k string) (string, string, error) {
	parts := strings.Split(k, ":")
	switch {
	case len(parts) == 2:
		return parts[0], parts[1], nil
	case len(parts) == 3 && parts[1] == "config":
		return parts[0], parts[2], nil
	}
	return "", "", fmt.Errorf("could not parse %s as a configuration key (configuration keys should be of the form `<namespace>:<name>`)", k)
}

// nodeRunScript returns @pulumi/pulumi/cmd/run/index.js for a program in
// pwd, as `require.resolve` from pwd would find it. When the program has no
// @pulumi/pulumi of its own, the shared test install is linked into
// pwd/node_modules first, with the program's `file:` dependencies (as `npm
// install` links them), so the program (and the TypeScript type checker)
// load the very copy that runs it.
func nodeRunScript(pwd string, getenv func(string) string) (string, error) {
	if own := ownPulumiPackage(pwd, getenv); own != "" {
		return filepath.Join(own, "cmd", "run", "index.js"), nil
	}
	shared, _, err := linkSharedNodePackages(pwd, getenv)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(filepath.Join(shared, "@pulumi", "pulumi", "cmd", "run", "index.js"))
}

// linkSharedNodePackages links the shared test install's direct
// dependencies and the program's `file:` dependencies into pwd/node_modules.
// It returns the shared node_modules and the `file:` dependencies' folders
// by package name.
func linkSharedNodePackages(pwd string, getenv func(string) string) (string, map[string]string, error) {
	shared, err := nodeModulesDir(getenv, pwd)
	if err != nil {
		return "", nil, err
	}
	local, err := localNodePackages(pwd)
	if err != nil {
		return "", nil, err
	}
	links := maps.Clone(local)
	for _, name := range sharedPackageNames(shared) {
		target := filepath.Join(shared, filepath.FromSlash(name))
		if _, err := os.Stat(target); err == nil && links[name] == "" {
			links[name] = target
		}
	}
	return shared, local, linkNodePackages(pwd, links)
}

// ownPulumiPackage finds the program's own @pulumi/pulumi, in
// pwd/node_modules or an ancestor's, as require.resolve would. A symbolic
// link there is the program's too (pnpm and npm link make them), unless it
// is one of ours: a link in pwd/node_modules to the shared install's
// @pulumi/pulumi, which linkSharedNodePackages made and renews on every
// run (so it follows POLYHOST_NODE_MODULES rather than pinning the program
// to the install of its first run).
func ownPulumiPackage(pwd string, getenv func(string) string) string {
	ours := ""
	if shared, err := nodeModulesDir(getenv, pwd); err == nil {
		ours = filepath.Join(shared, "@pulumi", "pulumi")
	}
	for dir := pwd; ; {
		pkg := filepath.Join(dir, "node_modules", "@pulumi", "pulumi")
		if _, err := os.Stat(filepath.Join(pkg, "cmd", "run", "index.js")); err == nil && !(dir == pwd && isLinkTo(pkg, ours)) {
			return pkg
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// isLinkTo says whether path is a symbolic link to target.
func isLinkTo(path, target string) bool {
	dest, err := os.Readlink(path)
	return err == nil && target != "" && dest == target
}

// linkLocalNodePackages links the `file:` dependencies of a program without
// an install of its own into pwd/node_modules (see nodeRunScript).
func linkLocalNodePackages(pwd string, getenv func(string) string) error {
	if ownPulumiPackage(pwd, getenv) != "" {
		return nil
	}
	links, err := localNodePackages(pwd)
	if err != nil {
		return err
	}
	return linkNodePackages(pwd, links)
}

// localNodePackages returns the directory of each `file:` dependency (and
// devDependency) in pwd/package.json, by package name; a missing directory
// is an error naming the dependency.
func localNodePackages(pwd string) (map[string]string, error) {
	links := map[string]string{}
	file := filepath.Join(pwd, "package.json")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return links, nil
	} else if err != nil {
		return nil, err
	}
	var pkg struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, deps := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
		for name, spec := range deps {
			rel, ok := strings.CutPrefix(spec, "file:")
			if !ok {
				continue
			}
			dir := filepath.FromSlash(rel)
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(pwd, dir)
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return nil, fmt.Errorf("%s: dependency %s is %q, but %s is not a directory (build or generate the package first)", file, name, spec, dir)
			}
			links[name] = dir
		}
	}
	return links, nil
}

// linkNodePackages makes pwd/node_modules/<name> a symlink to links[name].
// Existing real directories are left alone.
func linkNodePackages(pwd string, links map[string]string) error {
	for name, target := range links {
		link := filepath.Join(pwd, "node_modules", filepath.FromSlash(name))
		fi, err := os.Lstat(link)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink == 0:
			continue // the program's own install
		case err == nil:
			if cur, _ := os.Readlink(link); cur == target {
				continue
			}
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return fmt.Errorf("linking test node modules: %w", err)
		}
		// Create under a unique name and rename: safe against concurrent runs.
		tmp := fmt.Sprintf("%s.polyhost-%d-%d", link, os.Getpid(), linkSeq.Add(1))
		_ = os.Remove(tmp)
		if err := os.Symlink(target, tmp); err != nil {
			return fmt.Errorf("linking test node modules: %w", err)
		}
		if err := os.Rename(tmp, link); err != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("linking test node modules: %w", err)
		}
	}
	return nil
}

var linkSeq atomic.Int64

// sharedPackageNames lists the direct dependencies of the shared install.
func sharedPackageNames(shared string) []string {
	names := []string{"@pulumi/pulumi"}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(shared), "package.json"))
	if err != nil {
		return names
	}
	var pkg struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return names
	}
	seen := map[string]bool{names[0]: true}
	for _, m := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
		for n := range m {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names[1:])
	return names
}

// splitArgs splits a command line like a POSIX shell would for plain words,
// single and double quotes, and backslash escapes (enough for nodeargs).
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("unterminated quote or escape in %q", s)
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}
