// Package langhost lets the real Pulumi CLI run our test programs: it serves
// pulumirpc.LanguageRuntime over the runners of internal/runner, so the CLI's
// engine drives the same Go, Node.js and Python programs as the embedded
// engine does.
//
// The CLI starts `pulumi-language-<runtime>` from PATH; tests/setup.sh
// installs this adapter under those names in tests/.deps/bin, and the e2e
// tests register it as testscript commands. Start with [Main].
//
// SDK generation (`pulumi package gen-sdk`, `pulumi package add`) is served
// by a [Generator] given with [WithGenerator]; without one, GeneratePackage
// and Link answer Unimplemented. Pulumi's generators are in pkg/v3, which
// this module does not require: the build in tests/setup.sh comes from
// tests/tools/langhost, a module of its own that wraps this package with
// them. InstallDependencies (`pulumi install`, and the install step of
// `pulumi package add`) is [runner.Install]. Go source plugins (a plugin folder whose PulumiPlugin.yaml says
// `runtime: go`) are built and run by RunPlugin. `pulumi new`, program
// generation and other source plugins are not served: those RPCs answer
// Unimplemented and the CLI says so.
package langhost
