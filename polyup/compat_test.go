package polyup

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// compatSchema is a schema of the echo package: a Box component with the
// given inputs, and a version unless it is "".
func compatSchema(version, inputs string) string {
	src := "name: echo\n"
	if version != "" {
		src += "version: " + version + "\n"
	}
	return src + "resources:\n  echo:index:Box:\n    isComponent: true\n    inputProperties:\n" + inputs
}

func writeFile(t *testing.T, path, src string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// polyup compat OLD NEW with two files: exit 0 when compatible, 1 on a
// breaking change that no new major version or allow-list entry covers, 2
// when the check cannot run; flags anywhere; versions from flags; an allow
// list; Markdown and JSON.
func TestCompatCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	old := writeFile(t, at("old.yaml"), compatSchema("0.1.0", "      label: {type: string}\n"))
	same := writeFile(t, at("same.yaml"), compatSchema("0.1.1", "      label: {type: string}\n      note: {type: string}\n"))
	minor := writeFile(t, at("minor.yaml"), compatSchema("0.1.1", "      note: {type: string}\n"))
	major := writeFile(t, at("major.json"), `{"name": "echo", "version": "0.2.0", "resources": {"echo:index:Box": {"isComponent": true,
		"inputProperties": {"note": {"type": "string"}}}}}`)
	badJSON := writeFile(t, at("bad.json"), "{\n  \"name\": \"echo\",\n}\n")
	badYAML := writeFile(t, at("bad.yaml"), "name: [echo\n")
	noVersionOld := writeFile(t, at("nv-old.yaml"), compatSchema("", "      label: {type: string}\n"))
	noVersionNew := writeFile(t, at("nv-new.yaml"), compatSchema("", "      note: {type: string}\n"))
	allow := writeFile(t, at("allow.yaml"), "# Acknowledged.\n- token: echo:index:Box\n  path: inputs.label\n  reason: label was never read\n")
	allowUnused := writeFile(t, at("allow-unused.yaml"), "- token: echo:index:Box\n  path: inputs.label\n  reason: label was never read\n"+
		"- token: echo:index:Gone\n  reason: long gone\n")
	allowNoReason := writeFile(t, at("allow-noreason.yaml"), "- token: echo:index:Box\n  path: inputs.label\n")
	cases := []struct {
		args         []string
		code         int
		stdout, want string
	}{
		{[]string{"compat", old, same}, 0, "OK: programs and stacks of 0.1.0 keep working", ""},
		{[]string{"compat", old, minor}, 1, `echo:index:Box  input "label" removed  [TS Py Go YAML]`,
			"error: a breaking change needs a new major version: 0.2.0 or 1.0.0, not 0.1.1"},
		{[]string{"compat", "-json", old, minor}, 1, `"allowed": false`, "error: a breaking change"},
		{[]string{"compat", old, major}, 0, "OK as a new major version", ""},
		// Backwards, the added input is a removed one.
		{[]string{"compat", same, old}, 1, `echo 0.1.1 → 0.1.0: 1 breaking`, "error: a breaking change needs"},

		// Flags after OLD and NEW, or between them.
		{[]string{"compat", old, minor, "-json"}, 1, `"allowed": false`, "error: a breaking change"},
		{[]string{"compat", old, "-markdown", minor}, 1, "| `echo:index:Box` | input \"label\" removed | TS Py Go YAML |", ""},

		// The check could not run: exit 2.
		{[]string{"compat", old}, 2, "", "error: want OLD and NEW"},
		{[]string{"compat", "-nope", old, minor}, 2, "", "flag provided but not defined: -nope"},
		{[]string{"compat", "-json", "-markdown", old, minor}, 2, "", "-json and -markdown: choose one"},
		{[]string{"compat", old, at("nope.yaml")}, 2, "", "no such file or directory"},
		{[]string{"compat", old, badJSON}, 2, "", "error: NEW " + badJSON + ": invalid JSON at line 3, column 1: invalid character '}'"},
		{[]string{"compat", badYAML, old}, 2, "", "error: OLD " + badYAML + ": invalid YAML: line 1: did not find expected ',' or ']'"},
		{[]string{"compat", "-new-version", "two", old, minor}, 2, "", `version "two"`},

		// Versions: missing ones say how to give them; flags give them.
		{[]string{"compat", noVersionOld, noVersionNew}, 1, "echo (no version) → (no version): 1 breaking",
			"neither schema has a version to judge the release by: give them (polyup compat -old-version and -new-version)"},
		{[]string{"compat", noVersionOld, noVersionNew, "-old-version", "4.16.0", "-new-version", "5.0.0"}, 0,
			"echo 4.16.0 → 5.0.0: 1 breaking", ""},
		{[]string{"compat", "-new-version", "4.16.1", noVersionOld, noVersionNew}, 1, "",
			"the old schema has no version to compare 4.16.1 with: give it with polyup compat -old-version"},
		// The flag wins over the schema.
		{[]string{"compat", "-new-version", "1.0.0", old, minor}, 0, "echo 0.1.0 → 1.0.0", ""},

		// The allow list.
		{[]string{"compat", old, minor, "-allow", allow}, 0, "acknowledged: label was never read", ""},
		{[]string{"compat", "-allow", allow, old, minor}, 0, "1 breaking (1 acknowledged), 0 dangerous, 1 safe", ""},
		{[]string{"compat", "-allow", allowUnused, old, minor}, 0, "UNUSED ALLOW ENTRIES (they match no change)\n  echo:index:Gone: long gone\n",
			"warning: allow list " + allowUnused + ": an entry matches no change: echo:index:Gone: long gone"},
		{[]string{"compat", "-allow", allowNoReason, old, minor}, 2, "",
			"error: allow list " + allowNoReason + ": entry 1 (echo:index:Box): no reason: say why the change is acknowledged"},
		{[]string{"compat", "-allow", at("missing-allow.yaml"), old, minor}, 2, "", "no such file or directory"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("polyup %q: exit %d\nstdout %s\nstderr %q\nwant exit %d, %q and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.want)
		}
	}

	// -json counts the changes.
	var stdout, stderr bytes.Buffer
	Main([]string{"compat", old, minor, "-json", "-allow", allow}, &stdout, &stderr)
	var js struct {
		Counts  map[string]int
		Allowed bool
		Changes []struct{ Acknowledged string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &js); err != nil {
		t.Fatalf("-json: %v\n%s", err, stdout.String())
	}
	want := map[string]int{"breaking": 1, "dangerous": 0, "safe": 1, "acknowledged": 1}
	if !js.Allowed || len(js.Counts) != len(want) || js.Counts["breaking"] != 1 || js.Counts["safe"] != 1 || js.Counts["acknowledged"] != 1 {
		t.Errorf("-json: counts %v, allowed %v; want %v, allowed\n%s", js.Counts, js.Allowed, want, stdout.String())
	}
}

// OLD as a git ref is read from the repository holding NEW, from any
// directory; a release tag gives OLD's version when its schema has none.
func TestCompatGitRef(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Parallel()
	repo := t.TempDir()
	mod := filepath.Join(repo, "pkg")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
			"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	schema := filepath.Join(mod, "schema.yaml")
	writeFile(t, schema, compatSchema("", "      label: {type: string}\n"))
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	git("tag", "v7.3.1")
	writeFile(t, schema, compatSchema("", "      note: {type: string}\n"))
	other := filepath.Join(mod, "other.yaml")
	writeFile(t, other, compatSchema("", "      label: {type: string}\n"))

	// The test runs in this package's directory, outside that repository.
	cases := []struct {
		args         []string
		code         int
		stdout, want string
	}{
		{[]string{"compat", "v7.3.1", schema}, 1, "echo 7.3.1 → (no version): 1 breaking",
			"the new schema has no version: give it 8.0.0, in the schema or with polyup compat -new-version"},
		{[]string{"compat", "v7.3.1", schema, "-new-version", "8.0.0"}, 0, "echo 7.3.1 → 8.0.0: 1 breaking", ""},
		// REF:FILE, FILE named as NEW is.
		{[]string{"compat", "v7.3.1:" + schema, other}, 0, "echo 7.3.1 → (no version): 0 breaking", ""},
		{[]string{"compat", "v7.3.2", schema}, 2, "", `OLD "v7.3.2" is no file, and as a git ref: reading schema.yaml at v7.3.2: no such git ref`},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("polyup %q: exit %d\nstdout %s\nstderr %q\nwant exit %d, %q and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.want)
		}
	}
}
