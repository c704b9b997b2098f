// Package tests holds the end-to-end suite: testscript scripts in
// testdata/*.txtar run real consumer programs (Go, TypeScript, Python)
// through the sitekit provider on the embedded engine (tests/engine), using
// the polyup command (tests/polyup). Run tests/setup.sh first.
package tests
