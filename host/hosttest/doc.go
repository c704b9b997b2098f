// Package hosttest tests components, methods and custom resources written
// on package host, from the author's own module: a fake engine on loopback
// (a real gRPC ResourceMonitor and Engine) and a [Harness] that serves a
// provider against it.
//
// Start with [New]: give it the provider (host.New) and options for the
// fake engine ([WithDryRun] for a preview, [WithRegisterHook] for what
// custom children's Create returns, [WithOwnResources] to run the
// provider's own custom resources for its children, [WithParallel] for the
// engine's parallel, [WithInvokeHook] and [WithCallHook] for functions and
// methods of other packages). [Harness.Construct] and [Harness.Call] send
// what a program's engine sends, written with the converters the
// provider's server reads them with, and return outputs with their secret,
// unknown and dependency markers; a user's mistake comes back as a
// *diag.InputError, arguments a method or function refused as a
// *monitorclient.FailuresError. [Harness.RegisterProvider] registers an explicit
// provider as a program does: a provider of the package gets an instance
// of its own, configured, which serves what is given it.
// [Harness.Create], [Harness.Diff], [Harness.Update], [Harness.Read] and
// [Harness.Delete] drive a custom resource's backend as the engine does.
// [Monitor.Registrations] says what the component registered: types,
// names, parents, providers, inputs, options and dependencies, as the
// monitorclient.RegisterResourceRequest each was. [NewServer] is the
// provider's gRPC server, for tests that speak the protocol. [Start] runs
// the fake engine alone, for code that talks to the engine through
// package monitorclient, and for programs (internal/runner's tests).
package hosttest
