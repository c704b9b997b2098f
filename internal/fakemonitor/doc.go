// Package fakemonitor is a loopback ResourceMonitor + Engine gRPC server for
// unit tests of code that talks to the engine (monitorclient, host). Start
// one with [Start]; inspect what it received with [Monitor.Registrations],
// [Monitor.Outputs] and [Monitor.Logs].
package fakemonitor
