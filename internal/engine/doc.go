// Package engine is a small Pulumi engine for tests: it runs real consumer
// programs (any Program, see program.go) against real provider plugins and
// keeps a state file, so CI can prove the project works without the Pulumi
// CLI.
//
// Start with New and Options, then Engine.Up / Preview / Refresh / Destroy.
// An operation serves the Engine and ResourceMonitor gRPC services on one
// 127.0.0.1 port, launches one plugin process per provider resource with the
// sdk/v3 plugin client, and follows the real engine's step semantics
// (Check/Diff/Create/Update/Delete, create-before-delete and
// delete-before-replace replacements, import by ID (import.go), default
// and explicit providers, Construct and Call for component packages,
// parameterized packages a program registers (packages.go)).
// docs/engines.md lists what it does not do.
// A default provider's version comes from the request, else from
// Options.Packages (what a language host reports), else from the old
// state's providers, as in the real engine.
// LoadState and LoadResources read the state file for assertions; secrets
// in it are encrypted with a per-stack key kept in <StateFile>.key.
package engine
