// Package bench compares the host's Construct and Call with a Go SDK
// implementation of the same components (tests/peer), with the
// engine-bound floors (tests/bench/floor: a bare client sending the same
// registrations all at once, or at most `parallel` at once) and with
// itself on a thread per core (tests/bench/cmd/sitekit-allprocs), on the
// embedded engine (internal/engine); and, on the real pulumi CLI with a
// YAML program, ours with the Go SDK peer and with the same Site on the
// TypeScript and Python SDKs' component provider hosts
// (tests/bench/peers). It is for whoever changes host/ or monitorclient/
// and wants to know what it costs.
//
// Start with the polybench command, which runs every measurement in
// alternating rounds and writes docs/performance.md:
//
//	go run ./tests/bench/cmd/polybench -o docs/performance.md
//
// On the embedded engine each deployment runs two plugin processes: the
// component provider under test (Construct, Call) and a children's
// provider, always ours, serving the CRUD of the custom children. On the
// real engine (RealRunner) ours and the peer serve both in one process, as
// a user runs them; the hosts serve Construct only, so the children go to
// ours. `go test -bench . ./tests/bench` runs the embedded workloads one
// implementation at a time (Benchmark*); plain `go test` runs the parity
// tests, which check that every implementation leaves the same resources
// and outputs. The pieces: Build and BuildHosts (plugins behind the
// rusagewrap command, which reports each plugin's CPU, peak RSS and role),
// Runner.Run and RealRunner.Run (one deployment of a Workload), ColdStart,
// RunSuite and RunRealSuite (the rounds) and the Markdown methods (the
// report).
package bench
