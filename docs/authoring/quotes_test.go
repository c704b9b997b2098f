package guide_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/starter"
)

// Every code block of docs/authoring.md says above it where it comes from,
// and is there:
//
//   - `<!-- from: PATH -->`: a file of this repository, as it stands, in
//     order, with "..." for lines left out;
//   - `<!-- new: PATH -->`: the same, from the package `polyup new greet`
//     writes (rendered here from the starter's templates for greet);
//   - `<!-- run: SCRIPT -->`: a shell block whose every line is an exec or
//     cd line of the testscript, in order (the blocks of one script in the
//     script's order too), after one normalisation of the script's lines:
//     `exec ` is dropped, and so is ` -replace $REPO`, with which the
//     script's `polyup new` builds the fresh module against this checkout.
func TestGuideQuotes(t *testing.T) {
	root := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(root, "docs", "authoring.md"))
	if err != nil {
		t.Fatal(err)
	}
	rendered := filepath.Join(t.TempDir(), "greet")
	if err := starter.Create(rendered, starter.Options{Pkg: "greet"}); err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`^<!-- (from|new|run): (\S+) -->$`)
	lines := strings.Split(string(guide), "\n")
	ran := map[string]int{} // per script, the exec lines matched so far
	blocks := 0
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		start := i
		for i++; i < len(lines) && lines[i] != "```"; i++ {
		}
		blocks++
		body := lines[start+1 : i]
		m := marker.FindStringSubmatch(strings.TrimSpace(lines[max(start-1, 0)]))
		if m == nil {
			t.Errorf("authoring.md:%d: code block without a <!-- from: -->, <!-- new: --> or <!-- run: --> line above it", start+1)
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(m[2]))
		if m[1] == "new" {
			path = filepath.Join(rendered, filepath.FromSlash(m[2]))
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("authoring.md:%d: %v", start+1, err)
			continue
		}
		if m[1] != "run" {
			if err := quoted(string(src), body); err != "" {
				t.Errorf("authoring.md:%d: not in %s: %s", start+1, m[2], err)
			}
			continue
		}
		at, err := ranBy(execLines(string(src)), ran[m[2]], body)
		if err != nil {
			t.Errorf("authoring.md:%d: %s: %v", start+1, m[2], err)
		}
		ran[m[2]] = at
	}
	if blocks == 0 {
		t.Fatal("no code blocks in docs/authoring.md")
	}
}

// quoted reports why body is not in src, or "".
func quoted(src string, body []string) string {
	var chunk []string
	chunks := [][]string{}
	for _, l := range append(slices.Clone(body), "...") {
		if strings.TrimSpace(l) == "..." {
			if len(chunk) > 0 {
				chunks = append(chunks, chunk)
			}
			chunk = nil
			continue
		}
		chunk = append(chunk, l)
	}
	at := 0
	for _, c := range chunks {
		text := strings.Join(c, "\n") + "\n"
		i := strings.Index(src[at:], text)
		if i < 0 {
			return "the lines from " + strings.TrimSpace(c[0])
		}
		at += i + len(text)
	}
	return ""
}

// execLines are a testscript's exec and cd lines, normalised as
// TestGuideQuotes says.
func execLines(script string) []string {
	var out []string
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "exec "):
			l = strings.TrimPrefix(l, "exec ")
		case !strings.HasPrefix(l, "cd "):
			continue
		}
		out = append(out, strings.Replace(l, " -replace $REPO", "", 1))
	}
	return out
}

// ranBy matches each command of a shell block to the next equal one of
// lines, from lines[at]; it returns where the next block must start.
func ranBy(lines []string, at int, cmds []string) (int, error) {
	for _, cmd := range cmds {
		i := slices.Index(lines[at:], cmd)
		if i < 0 {
			after := "its start"
			if at > 0 {
				after = fmt.Sprintf("%q", lines[at-1])
			}
			return at, fmt.Errorf("does not run %q after %s", cmd, after)
		}
		at += i + 1
	}
	return at, nil
}
