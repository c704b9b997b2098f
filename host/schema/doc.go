// Package schema loads a Pulumi package schema written in YAML and checks
// property values against it.
//
// A provider embeds its schema.yaml and calls [Load] once at start-up, which
// refuses what the CLI's schema binder would (unknown types, dangling $refs,
// required properties not declared); the host serves [Package.JSON] from GetSchema and uses [Package.Check] to turn
// bad user input into property-path failures (CheckFailure,
// InputPropertiesError) instead of internal errors.
//
// [Package.LanguageProblems] goes beyond the binder: it finds the names
// for which Pulumi's SDK generators write TypeScript, Python or Go that does
// not compile (a resource named Object, a function named delete), and the
// host refuses such a schema at start-up.
package schema
