package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"github.com/polyhost/polyhost/internal/engine"
)

// pythonPackagesScript prints, as JSON, every distribution the interpreter
// sees (first of each name, as `pip list`) with its version and the
// pulumi-plugin.json of its top-level package, found as
// pulumi-language-python's script finds it: the module named by the
// distribution's Name with "-" made "_".
const pythonPackagesScript = `import importlib.metadata, importlib.util, json, os, re
out, seen = [], set()
for dist in importlib.metadata.distributions():
    name = dist.metadata['Name']
    if not name:
        continue
    key = re.sub(r'[-_.]+', '-', name).lower()
    if key in seen:
        continue
    seen.add(key)
    plugin = ''
    try:
        spec = importlib.util.find_spec(name.replace('-', '_'))
        locs = list(spec.submodule_search_locations or []) if spec else []
        found = [p for l in locs for p in [os.path.join(str(l), 'pulumi-plugin.json')] if os.path.isfile(p)]
        plugin = found[0] if found else ''
    except Exception:
        pass
    out.append({'name': name, 'version': dist.version, 'plugin': plugin})
print(json.dumps(out))
`

// pythonWithoutPlugins are the pulumi-* distributions the host knows have
// no plugin.
var pythonWithoutPlugins = map[string]bool{"pulumi-policy": true, "pulumi-esc-sdk": true}

var pythonNameSeparators = regexp.MustCompile(`[-_.]+`)

// pythonPackages lists a Python program's resource packages as
// pulumi-language-python's GetRequiredPackages does
// (sdk/python/cmd/pulumi-language-python/main.go): of the distributions
// installed for the program's interpreter (its virtualenv, else the shared
// one; the host asks `pip list`, this importlib.metadata), those with a
// pulumi-plugin.json in their package, or named pulumi-*. A file with
// "resource": false drops the package; the name is the file's, else the
// normalized distribution name without "pulumi-"; the version the file's,
// else the distribution's PEP 440 version made semver (skipped when it
// cannot be); a "v" is prefixed.
func pythonPackages(ctx context.Context, p *pythonProgram) ([]engine.Package, error) {
	py, err := p.interpreter()
	if err != nil {
		return nil, fmt.Errorf("python program in %s: %w", p.spec.pwd, err)
	}
	cmd := exec.CommandContext(ctx, py, "-c", pythonPackagesScript)
	cmd.Dir = p.spec.pwd
	cmd.Env = activateVenv(os.Environ(), py)
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%w\n%s", err, lastLines(string(exit.Stderr), tailLines))
		}
		return nil, fmt.Errorf("python program in %s: listing packages with %s: %w", p.spec.pwd, py, err)
	}
	var dists []struct{ Name, Version, Plugin string }
	if err := json.Unmarshal(out, &dists); err != nil {
		return nil, fmt.Errorf("python program in %s: listing packages: %w", p.spec.pwd, err)
	}
	var pkgs []engine.Package
	for _, d := range dists {
		name := pythonNameSeparators.ReplaceAllString(strings.ToLower(d.Name), "-")
		if pythonWithoutPlugins[name] {
			continue
		}
		var info *pluginJSON
		if d.Plugin != "" {
			if data, err := os.ReadFile(d.Plugin); err == nil {
				info = &pluginJSON{}
				if err := json.Unmarshal(data, info); err != nil {
					return nil, fmt.Errorf("python program in %s: failed to parse pulumi-plugin.json for %s: %w", p.spec.pwd, name, err)
				}
			}
		}
		if info == nil && !strings.HasPrefix(name, "pulumi-") {
			continue
		}
		if pkg, ok := pythonPackage(name, d.Version, info); ok {
			pkgs = append(pkgs, pkg)
		}
	}
	return pkgs, nil
}

// pythonPackage is the host's packageDependencyFromPluginJSON.
func pythonPackage(name, version string, info *pluginJSON) (engine.Package, bool) {
	var pkg engine.Package
	if info != nil {
		if !info.Resource {
			return engine.Package{}, false
		}
		pkg = engine.Package{Name: info.Name, Version: info.Version, PluginDownloadURL: info.Server}
	}
	if pkg.Name == "" {
		pkg.Name = strings.TrimPrefix(name, "pulumi-")
	}
	if pkg.Version == "" {
		v, err := pluginVersionFromPEP440(version)
		if err != nil {
			return engine.Package{}, false
		}
		pkg.Version = v
	}
	if !strings.HasPrefix(pkg.Version, "v") {
		pkg.Version = "v" + pkg.Version
	}
	return pkg, true
}

// pluginVersionFromPEP440 is the host's determinePluginVersion: it reads
// N(.N)*[{a|b|rc}N][.postN][.devN], pads to three numbers and writes
// 1.2.3a4 as 1.2.3-alpha.4, b as beta, rc as rc, .post4 as +post4 and .dev5
// as +dev5 (dev5 after a post). Epochs and anything else are refused.
func pluginVersionFromPEP440(v string) (string, error) {
	if v == "" {
		return "", errors.New("cannot parse empty string")
	}
	for i := 0; i < len(v); i++ {
		if v[i] > 127 {
			return "", fmt.Errorf("byte %d is not ascii", i)
		}
	}
	number := func(s string) (string, string) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return s[:i], s[i:]
	}
	if n, rest := number(v); n != "" && strings.HasPrefix(rest, "!") {
		return "", errors.New("epochs are not supported")
	}
	var segments []string
	rest := v
	for {
		n, r := number(rest)
		if n == "" {
			break
		}
		segments = append(segments, n)
		rest = r
		if !strings.HasPrefix(rest, ".") {
			break
		}
		if m, _ := number(rest[1:]); m == "" {
			break // the dot begins .post or .dev
		}
		rest = rest[1:]
	}
	for len(segments) < 3 {
		segments = append(segments, "0")
	}
	out := strings.Join(segments, ".")
	var n string
	switch {
	case strings.HasPrefix(rest, "a"):
		n, rest = number(rest[1:])
		out += "-alpha." + n
	case strings.HasPrefix(rest, "b"):
		n, rest = number(rest[1:])
		out += "-beta." + n
	case strings.HasPrefix(rest, "rc"):
		n, rest = number(rest[2:])
		out += "-rc." + n
	}
	post := false
	if strings.HasPrefix(rest, ".post") {
		n, rest = number(rest[5:])
		out += "+post" + n
		post = true
	}
	if strings.HasPrefix(rest, ".dev") {
		n, rest = number(rest[4:])
		if !post {
			out += "+"
		}
		out += "dev" + n
	}
	if rest != "" {
		return "", fmt.Errorf("'%s' still unparsed", rest)
	}
	return out, nil
}
