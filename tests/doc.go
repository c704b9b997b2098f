// Package tests holds the end-to-end suite: testscript scripts in
// testdata/*.txtar run real consumer programs (Go, TypeScript, Python)
// through the sitekit provider on the embedded engine (internal/engine), using
// the polyup command (package polyup, cmd/polyup). Run tests/setup.sh first.
package tests
