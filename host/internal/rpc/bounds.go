package rpc

import (
	"fmt"
	"unicode/utf8"

	"github.com/polyhost/polyhost/host/diag"
)

// What one answer tells the engine is bounded, whatever the input it is
// about: an error travels in gRPC's trailers, which the connection's
// header compression refuses over about 16 MB, ending the connection and
// every call in flight on it. The rest of a longer text is left out,
// saying how much.
const (
	maxText     = 16 << 10 // bytes of an error's message or a failure's reason
	maxFailures = 100      // failures of one answer; the message counts the rest
)

// bounded is s cut to at most max bytes (at a character), saying how many
// were left out.
func bounded(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// boundedFailures are fs, each reason bounded, at most maxFailures of
// them; more is how many were left out.
func boundedFailures(fs []diag.CheckFailure) (out []diag.CheckFailure, more int) {
	if len(fs) > maxFailures {
		fs, more = fs[:maxFailures], len(fs)-maxFailures
	}
	out = make([]diag.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = diag.CheckFailure{Property: bounded(f.Property, maxText), Reason: bounded(f.Reason, maxText)}
	}
	return out, more
}
