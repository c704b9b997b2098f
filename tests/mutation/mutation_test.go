// Package mutation is the mutation check of the security-critical code:
// redaction and marking, the child-name check, typed decoding, Diff and
// replace decisions, storage names, the schema check before a backend
// runs, and the Terraform backend's secrets and replacements. Each mutant
// is a one-line change that must fail the tests named with it; one that
// passes them is a survivor, and fails this test. The mutants are built
// with go test -overlay: the tree itself is never changed.
package mutation

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type mutant struct {
	name     string
	file     string // from the repository's root
	from, to string // from occurs once in file
	pkg      string // whose tests must kill it
	run      string // -run pattern of those tests
}

var mutants = []mutant{
	{"case fold of Z", "host/internal/redact/match.go",
		"if 'A' <= c && c <= 'Z' {", "if 'A' <= c && c < 'Z' {", "./host/internal/redact", "TestRedact|TestMatcher"},
	{"lower case of Z", "host/internal/redact/match.go",
		"if 'A' <= s[i] && s[i] <= 'Z' {", "if 'A' <= s[i] && s[i] < 'Z' {", "./host/internal/redact", "TestRedact|TestMatcher"},
	{"base64 alphabet without Z", "host/internal/redact/match.go",
		"|| 'A' <= c && c <= 'Z'\n", "|| 'A' <= c && c < 'Z'\n", "./host/internal/redact", "TestRedact|TestMatcher"},
	{"redaction keeps the secret", "host/internal/redact/match.go",
		`b.WriteString("[secret]")`, `b.WriteString(s[sp.Start:sp.End])`, "./host/internal/redact", "TestRedact|TestMatcher"},
	{"name check finds nothing", "host/internal/core/component.go",
		"for _, o := range c.inputSecrets.Occurrences(name) {", `for _, o := range c.inputSecrets.Occurrences("") {`, "./host/internal/core", "TestCheckName"},
	{"a short key never stands alone", "host/internal/core/component.go",
		"return (sp.Start == 0 ||", "return false && (sp.Start == 0 ||", "./host/internal/core", "TestCheckName"},
	{"an unknown decoded as a lost secret", "host/internal/typed/typed.go",
		"if v.IsComputed() {\n\t\td.lost.Unknown = append(d.lost.Unknown, path)", "if v.IsComputed() {\n\t\td.lost.Secret = append(d.lost.Secret, path)", "./host/internal/core", "TestTypedDiff"},
	{"default Diff ignores replaceOnChanges", "host/internal/core/crud.go",
		"replace := spec.InputProperties[k].ReplaceOnChanges || spec.InputProperties[k].WillReplaceOnChanges", "replace := false", "./host/internal/core", "TestDefaultDiff"},
	{"default Diff sees no change", "host/internal/core/crud.go",
		"resp.HasChanges = len(resp.Changes) > 0", "resp.HasChanges = false", "./host/internal/core", "TestDefaultDiff"},
	{"a secret input leaves outputs plain", "host/internal/core/crud.go",
		"\t\t\t\treturn allSecret(outputs)\n", "\t\t\t\treturn outputs\n", "./host", "TestTyped|TestSecret|TestOutput|TestRead"},
	{"Create skips the schema check", "host/internal/core/crud.go",
		"\tif len(failures) == 0 {\n\t\treturn nil\n\t}\n\treturn &diag.InputError{Message: \"invalid inputs\", Failures: failures}", "\treturn nil", "./host", "TestApplyWithoutCheck"},
	{"storage takes .. as a name", "provider/storage/names.go",
		`case s == "." || s == "..":`, "case false:", "./provider/storage", ""},
	{"Terraform's sensitive attributes come back plain", "host/terraform/internal/tfvalue/from.go",
		"e = e.WithSecret(true)", "e = e.WithSecret(false)", "./host/terraform/internal/tfvalue", ""},
	{"Terraform's RequiresReplace replaces nothing", "host/terraform/internal/tfresource/resource.go",
		"replaces := r.replaced(replace)", "replaces := r.replaced(nil)", "./host/terraform/internal/tfresource", ""},
}

func TestMutantsDie(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every mutant's tests")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mutants {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(root, filepath.FromSlash(m.file))
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(src), m.from); n != 1 {
				t.Fatalf("the mutation no longer applies: %q occurs %d times in %s", m.from, n, m.file)
			}
			dir := t.TempDir()
			mutated := filepath.Join(dir, filepath.Base(file))
			if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.from, m.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{file: mutated}})
			ov := filepath.Join(dir, "overlay.json")
			if err := os.WriteFile(ov, overlay, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"test", "-count=1", "-overlay", ov}
			if m.run != "" {
				args = append(args, "-run", m.run)
			}
			cmd := exec.Command("go", append(args, m.pkg)...)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			switch {
			case err == nil:
				t.Errorf("survivor: %s: %q -> %q in %s; the tests of %s (-run %q) still pass", m.name, m.from, m.to, m.file, m.pkg, m.run)
			case !strings.Contains(string(out), "--- FAIL"):
				t.Errorf("the mutant did not build, or failed no test:\n%s", out)
			}
		})
	}
}
