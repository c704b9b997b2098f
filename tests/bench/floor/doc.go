// Package floor is the engine-bound floor of tests/bench: a sitekit plugin
// whose Construct of Site sends exactly the registrations ours sends (same
// names, parents, inputs, dependencies and outputs) with a bare monitor
// client, and does nothing else: no host, no typed inputs, no component
// code. Every other RPC is the normal sitekit server, and it runs on one Go
// thread, as host.Main runs ours. Its CPU is the least a provider spends on
// the same Construct with the same monitor client.
package floor
