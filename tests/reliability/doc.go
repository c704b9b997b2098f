// Package reliability is the sitekit provider's reliability suite: faults
// (the engine vanishing mid-Construct, Cancel during a slow create, panics
// in component code, the plugin killed mid-up), 50 concurrent Constructs
// and Calls under -race, secrets kept out of logs, errors and state, and
// the malformed-input table in docs/reliability.md, which
// TestMalformedInputs generates (go test ./tests/reliability -run
// TestMalformedInputs -update rewrites it).
//
// Everything is in the tests; start with main_test.go (the plugin builds)
// and helpers_test.go.
package reliability
