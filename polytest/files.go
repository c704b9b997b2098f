package polytest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdNoleak fails if TEXT occurs in any file under the paths (a state
// file, the backend's folder with its history and backups, a log), or in
// the last command's stdout or stderr.
func cmdNoleak(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: noleak TEXT PATH|stdout|stderr...")
	}
	text := args[0]
	if text == "" {
		ts.Fatalf("noleak: the text is empty")
	}
	var found []string
	for _, root := range args[1:] {
		if root == "stdout" || root == "stderr" {
			if strings.Contains(ts.ReadFile(root), text) {
				found = append(found, root)
			}
			continue
		}
		err := filepath.WalkDir(ts.MkAbs(root), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(string(data), text) {
				found = append(found, path)
			}
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			ts.Fatalf("noleak: %s does not exist", root)
		}
		ts.Check(err)
	}
	if len(found) > 0 {
		ts.Fatalf("%q found in plaintext in:\n  %s", text, strings.Join(found, "\n  "))
	}
}

// cmdCpdir copies a program's folder, leaving out what installs and runs
// leave behind: node_modules, virtualenvs (venv), __pycache__, hidden
// folders (.polyup's state, a file:// storage, .venv, .git) and stack
// config files (Pulumi.<stack>.yaml).
func cmdCpdir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpdir SRC DST")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	skip := map[string]bool{"node_modules": true, "venv": true, "__pycache__": true}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		name := d.Name()
		switch {
		case path == src:
		case d.IsDir() && (skip[name] || strings.HasPrefix(name, ".")):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasPrefix(name, "Pulumi.") && name != "Pulumi.yaml" && name != "Pulumi.yml":
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	ts.Check(err)
}
