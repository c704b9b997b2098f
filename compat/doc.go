// Package compat is a package author's release check: it compares two
// schemas of a package, the last release's and the current one, and says
// what each change breaks, for whom, before the release ships.
//
//	report, err := compat.Compare(released, current) // schema documents, YAML or JSON
//	fmt.Print(report.Text())                          // or report.JSON(), for tools
//	if err := report.Err(); err != nil { ... }        // breaking, and no new major version
//
// Each [Change] has a [Level], in graphql-inspector's terms: breaking
// (programs written for the old schema fail, or stacks replace resources),
// dangerous (nothing fails, but behaviour may change: a default, a secret,
// a replacement on the next change) or safe. It says whom it hits
// ([Audience]: TypeScript, Python, Go or YAML programs, existing stacks),
// and for a resource whose type token changed, the alias that carries
// existing resources over. [Report.Err] fails a breaking change unless the
// version is a new major one (0.x: a new minor) or an allow list
// acknowledges it ([ReadAllowList], [Report.Acknowledge]);
// [Report.WriteMarkdown] writes a pull-request comment. [LastRelease] and [ReadAt]
// read the schema of the last vX.Y.Z tag with git; the command `polyup
// compat OLD NEW` and the test polyup new writes (compat_test.go) use them.
//
// The kinds of change are those of pulumi/schema-tools' compare (missing
// resources, functions, types, inputs and outputs, inputs made required,
// types changed), refined as buf breaking refines its wire and source
// checks: a type change is judged by where values flow, so an input that
// now also takes an integer breaks nobody while an output that may now be
// one breaks typed readers; a method is judged apart from YAML, which
// cannot call it. Its tags are what compilers say: TestCorpusAgainstCompilers
// builds, for each pair of testdata/pairs (and pulumi-random's published
// schemas, given POLYHOST_PUBLISHED_SCHEMAS), a consumer written against the old SDKs (from Pulumi's
// generators) against the new ones, under tsc, go build and Go's and
// Python's mocks; tests/breakage runs consumers under the real CLI.
//
// The check reads schemas itself rather than through host/schema: it must
// read whatever a past release shipped, even what today's host would
// refuse, and what the host does not act on (oneOf unions, aliases,
// language sections, a function's non-object result, multi-argument
// functions); and Pulumi's own codegen/schema would bring pkg/v3 into the
// main module. Its reading is held to Pulumi's binder instead: every schema
// of its tests binds, and reads as the binder reads it
// (tests/tools/langhost/binder, compat_test.go). No plugin links this
// package.
package compat
