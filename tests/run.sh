#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the consumer-program
# dependencies (tests/setup.sh), then unit tests, the e2e scripts, the race
# detector on the concurrent packages, and a short fuzz of each fuzz target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash tests/setup.sh
go vet ./...
go test -count=1 ./...
go test -count=1 -race ./host/... ./monitorclient/... ./internal/... ./tests/reliability/
# Short fuzzing in CI; run longer by hand with a larger -fuzztime.
go test -run '^$' -fuzz '^FuzzPropertyDecoding$' -fuzztime 10s ./host/
go test -run '^$' -fuzz '^FuzzTypedArgs$' -fuzztime 10s ./host/
go test -run '^$' -fuzz '^FuzzMarshal$' -fuzztime 10s ./internal/wire/
go test -run '^$' -fuzz '^FuzzUnmarshal$' -fuzztime 10s ./internal/wire/
