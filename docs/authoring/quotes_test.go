package guide_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every code block of docs/authoring.md is marked with the file it comes
// from, and is in it: a Go block (`<!-- from: path -->`) as it stands in
// the file, in order, with "..." for lines left out; a shell block
// (`<!-- run: script -->`) command by command, each an exec or cd line of
// the testscript that runs them (which may add flags).
func TestGuideQuotes(t *testing.T) {
	root := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(root, "docs", "authoring.md"))
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`^<!-- (from|run): (\S+) -->$`)
	lines := strings.Split(string(guide), "\n")
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
			t.Errorf("authoring.md:%d: code block without a <!-- from: --> or <!-- run: --> line above it", start+1)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m[2])))
		if err != nil {
			t.Errorf("authoring.md:%d: %v", start+1, err)
			continue
		}
		if m[1] == "from" {
			if err := quoted(string(src), body); err != "" {
				t.Errorf("authoring.md:%d: not in %s: %s", start+1, m[2], err)
			}
			continue
		}
		for _, cmd := range body {
			if cmd, _, _ = strings.Cut(cmd, "#"); strings.TrimSpace(cmd) != "" && !ranBy(string(src), cmd) {
				t.Errorf("authoring.md:%d: %s does not run %q", start+1, m[2], strings.TrimSpace(cmd))
			}
		}
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

// ranBy says whether a script has an exec or cd line whose words contain
// cmd's words in order.
func ranBy(script, cmd string) bool {
	want := strings.Fields(cmd)
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimPrefix(strings.TrimSpace(l), "! ")
		if !strings.HasPrefix(l, "exec ") && !strings.HasPrefix(l, "cd ") {
			continue
		}
		words, i := strings.Fields(strings.TrimPrefix(l, "exec ")), 0
		for _, w := range words {
			if i < len(want) && w == want[i] {
				i++
			}
		}
		if i == len(want) && words[0] == want[0] {
			return true
		}
	}
	return false
}
