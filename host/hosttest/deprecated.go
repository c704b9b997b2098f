package hosttest

import (
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
)

// Names moved out of hosttest, kept one release so that `go fix ./...`
// rewrites a test written against them. Their fields changed where the
// comment says; CHANGELOG.md gives each migration.
type (
	// Deprecated: use diag.CheckFailure.
	//go:fix inline
	CheckFailure = diag.CheckFailure
	// Deprecated: use monitorclient.CustomTimeouts.
	//go:fix inline
	CustomTimeouts = monitorclient.CustomTimeouts
	// Deprecated: use monitorclient.Alias (its Name, Type, ... are in Spec).
	//go:fix inline
	Alias = monitorclient.Alias
	// Deprecated: use monitorclient.LogRequest (Severity is a
	// monitorclient.Severity).
	//go:fix inline
	LogEntry = monitorclient.LogRequest
	// Deprecated: use monitorclient.InvokeResponse; return failures as a
	// *monitorclient.FailuresError.
	//go:fix inline
	InvokeResult = monitorclient.InvokeResponse
	// Deprecated: use monitorclient.CallResponse; return failures as a
	// *monitorclient.FailuresError.
	//go:fix inline
	CallResult = monitorclient.CallResponse
	// Deprecated: use monitorclient.InvokeResponse; failures come as a
	// *monitorclient.FailuresError.
	//go:fix inline
	InvokeResponse = monitorclient.InvokeResponse
	// Deprecated: use monitorclient.CallResponse; failures come as a
	// *monitorclient.FailuresError.
	//go:fix inline
	CallResponse = monitorclient.CallResponse
)
