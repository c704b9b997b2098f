package binder

import (
	"os"
	"path/filepath"
	"testing"
)

// testSchemaDirs hold the schemas the unit tests use (those that are meant
// to load), as files the tests embed or compare with what they build: the
// host's test packages, schema-first and Go-first, and the schema of the
// package polyup new creates.
var testSchemaDirs = []string{"host/testdata/schemas", "host/internal/core/testdata/schemas", "host/internal/rpc/testdata/schemas",
	"host/gosdk/testdata", "host/schema/testdata",
	"host/schemagen/testdata/schemas", "internal/starter/testdata"}

// TestTestSchemasBind binds every schema the host's unit tests use with
// Pulumi's binder: no error diagnostics, and every property read as the
// host's reader reads it.
func TestTestSchemasBind(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..", "..", "..")
	var files []string
	for _, dir := range testSchemaDirs {
		matches, err := filepath.Glob(filepath.Join(root, dir, "*.yaml"))
		if err != nil || len(matches) == 0 {
			t.Fatalf("no schemas in %s (%v)", dir, err)
		}
		files = append(files, matches...)
	}
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			bindServed(t, src)
		})
	}
}
