// Package reliability is the sitekit provider's reliability suite: faults
// (the engine vanishing mid-Construct, Cancel during a slow create, panics
// in component code, the plugin killed or stopped mid-up, a full disk,
// storage on another filesystem than TMPDIR), concurrent Constructs and
// Calls and a concurrent create and delete of one object under -race,
// secrets kept out of logs, errors and state (on the embedded engine, and
// a hunt under the real CLI), and the table of malformed and hostile
// requests in docs/reliability.md, which TestMalformedInputs generates (go
// test ./tests/reliability -run TestMalformedInputs -update rewrites it;
// attack_test.go holds the attack suite's rows).
//
// Everything is in the tests; start with main_test.go (the plugin builds)
// and helpers_test.go.
package reliability
