package monitorclient

import "github.com/polyhost/polyhost/host/diag"

// CheckFailure is kept one release so that `go fix ./...` rewrites it.
//
// Deprecated: use diag.CheckFailure.
//
//go:fix inline
type CheckFailure = diag.CheckFailure
