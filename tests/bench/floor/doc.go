// Package floor is the engine-bound floor of tests/bench: a sitekit plugin
// whose Construct of Site sends exactly the registrations ours sends (same
// names, parents, inputs, dependencies and outputs) with a bare monitor
// client, and does nothing else: no host, no typed inputs, no component
// code. Every other RPC is the normal sitekit server. Its CPU is the least
// any provider can spend on the same Construct.
package floor
