// Package tests holds the end-to-end suite: testscript scripts in
// testdata/*.txtar run real consumer programs (Go, TypeScript, Python,
// YAML) through the sitekit provider and the test packages, on the
// embedded engine (polyup) and under the real CLI, on the public kit
// (package polytest) plus what is private to this repository
// (testdata/README.md). Run tests/setup.sh first.
package tests
