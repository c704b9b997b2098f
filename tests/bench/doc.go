// Package bench compares the host's Construct and Call with a Go SDK
// implementation of the same components (tests/peer), with the
// engine-bound floors (tests/bench/floor: a bare client sending the same
// registrations all at once, or at most `parallel` at once) and with
// itself on a thread per core (tests/bench/cmd/sitekit-allprocs), on the
// embedded engine (internal/engine). It is for whoever changes host/ or
// monitorclient/ and wants to know what it costs.
//
// Start with the polybench command, which runs every measurement in
// alternating rounds and writes docs/performance.md:
//
//	go run ./tests/bench/cmd/polybench -o docs/performance.md
//
// Each deployment runs two plugin processes: the component provider under
// test (Construct, Call) and a children's provider, always ours, serving the
// CRUD of the custom children. `go test -bench . ./tests/bench` runs the
// same workloads one implementation at a time (Benchmark*); plain `go test`
// runs only TestParity, which checks that ours, the peer, the floors and
// ours on a thread per core produce the same resources and outputs. The
// pieces: Build (plugins behind the rusagewrap command, which reports each
// plugin's CPU, peak RSS and role), Runner.Run (one deployment of a
// Workload), ColdStart, RunSuite (the rounds) and Results.Markdown (the
// report).
package bench
