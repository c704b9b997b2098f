// Package runner runs Pulumi consumer programs (Go, Node.js/TypeScript,
// Python) against the embedded test engine the way the real language hosts
// do, without the Pulumi CLI.
//
// It is for the engine in internal/engine and for tests that drive it. Start
// with [ForDir], which reads a program directory's Pulumi.yaml and picks
// [Go], [NodeJS] or [Python]; each returns an engine.Program whose Run
// starts the program with the command line and environment of
// pulumi-language-go, -nodejs or -python and waits for it.
//
// Node and Python programs run on their own dependencies: the
// @pulumi/pulumi in their node_modules (npm install), the virtualenv their
// Pulumi.yaml names, else python3. Where a program has none, the shared
// installs of `bash tests/setup.sh` stand in (POLYHOST_NODE_MODULES and
// POLYHOST_PYTHON, or tests/.deps inside this repository); without either
// Run fails with [ErrDepsMissing], saying what is missing. A program
// that exits non-zero fails with an [*ExitError] carrying its exit status and
// the tail of its stderr, secret config values redacted. Set
// POLYHOST_RUNNER_VERBOSE=1 to copy program output to stderr as it runs.
// A program runs in a process group of its own, killed whole when Run's
// context ends; on Linux the kernel also kills the program if the runner's
// process dies first.
// [Install] installs a program's own dependencies, offline, as the
// language hosts' InstallDependencies does for `pulumi install` and
// `pulumi package add`. Call [Cleanup] from TestMain to remove the binaries built for Go programs.
package runner
