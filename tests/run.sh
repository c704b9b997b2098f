#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the consumer-program
# dependencies and the real pulumi CLI and regenerates the sitekit SDKs
# (tests/setup.sh), checks that the regenerated SDKs are the committed ones,
# then gofmt and go vet, staticcheck, unit tests, the e2e scripts on both engines, the race detector
# on the concurrent packages, and a short fuzz of each fuzz target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash tests/setup.sh
# The SDKs in sdk/ are committed, as Pulumi's provider repositories commit
# theirs, so that the examples run without the CLI's build: they must be
# what a fresh `pulumi package gen-sdk` run (setup.sh, just now) writes.
if ! git diff --quiet -- sdk || [ -n "$(git ls-files --others --exclude-standard -- sdk)" ]; then
	{
		echo "tests/run.sh: the committed SDKs in sdk/ differ from a fresh codegen run:"
		git status --short -- sdk
		echo "tests/setup.sh has just written the fresh ones into sdk/ (it does so on"
		echo "every run): review them (git diff sdk) and commit them (git add sdk)."
	} >&2
	exit 1
fi
# setup.sh installed the real pulumi CLI: scripts that need it must run, not skip.
export POLYHOST_REQUIRE_PULUMI=1
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" $unformatted >&2
	exit 1
fi
go vet ./...
# staticcheck at a pinned version: the exported API and its callers stay
# clean of deprecated calls, dead code and misspelled errors.
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
# The Go example is a module of its own, on the generated SDK.
(cd examples/go && go vet ./...)
(cd tests/portal && go vet ./... && go test -count=1 ./...)
# The e2e scripts (package tests, both engines) can outlast go test's
# default 10 minutes a package when the machine is shared: at a load
# average of 10 on two cores they were cut off at about 9 minutes.
go test -count=1 -timeout 30m ./...
# Modules of their own, with pkg/v3: the language host with Pulumi's
# generators, and the tests that judge host/schema by Pulumi's binder.
(cd tests/tools/langhost && go vet ./... && go test -count=1 ./...)
go test -count=1 -race ./host/... ./monitorclient/... ./internal/wire/... ./tests/reliability/
# Short fuzzing in CI, by execution count (about 10 s each on 2 cores): a
# -fuzztime duration trips a race in Go 1.26's fuzz coordinator
# (go.dev/issue/75804) that fails the run with "context deadline exceeded".
# -timeout still fails an input that hangs. Run longer by hand; see
# docs/reliability.md.
go test -run '^$' -fuzz '^FuzzPropertyDecoding$' -fuzztime 30000x -timeout 5m ./host/internal/rpc/
go test -run '^$' -fuzz '^FuzzTypedArgs$' -fuzztime 30000x -timeout 5m ./host/internal/rpc/
go test -run '^$' -fuzz '^FuzzMarshal$' -fuzztime 12000x -timeout 5m ./internal/wire/
go test -run '^$' -fuzz '^FuzzUnmarshal$' -fuzztime 12000x -timeout 5m ./internal/wire/
go test -run '^$' -fuzz '^FuzzUnmarshalBytes$' -fuzztime 30000x -timeout 5m ./internal/wire/
