// Package langhost lets the real Pulumi CLI run our test programs: it serves
// pulumirpc.LanguageRuntime over the runners of tests/runner, so the CLI's
// engine drives the same Go, Node.js and Python programs as the embedded
// engine does.
//
// The CLI starts `pulumi-language-<runtime>` from PATH; tests/setup.sh
// installs this adapter under those names in tests/.deps/bin, and the e2e
// tests register it as testscript commands. Start with [Main]. Code
// generation, `pulumi new` and source plugins are not served: those RPCs
// answer Unimplemented and the CLI says so.
package langhost
