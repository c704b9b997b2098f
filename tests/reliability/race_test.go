//go:build race

package reliability

// raceEnabled: under -race only the tests that run host code in this
// process run; those that drive the plugin binary ran in the plain pass.
const raceEnabled = true
