package schema

import "github.com/polyhost/polyhost/host/diag"

// Failure is kept one release so that `go fix ./...` rewrites it; its
// Path is diag.CheckFailure's Property.
//
// Deprecated: use diag.CheckFailure.
//
//go:fix inline
type Failure = diag.CheckFailure
