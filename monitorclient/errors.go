package monitorclient

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/diag"
)

// ErrPoolClosed is returned by Pool.Get after Pool.Close.
var ErrPoolClosed = errors.New("monitorclient: pool is closed")

// RPCError is a failed monitor RPC, named after what it was about so a user
// can tell which resource or function failed. Unwrap gives the gRPC error
// (status.Code works on an *RPCError).
type RPCError struct {
	Op     string // e.g. "register resource", "invoke", "call"
	Target string // type token and name, function token, or URN
	Err    error
}

func (e *RPCError) Error() string {
	msg := e.Err.Error()
	if s, ok := status.FromError(e.Err); ok {
		msg = s.Message()
	}
	return fmt.Sprintf("%s %s: %s", e.Op, e.Target, msg)
}

func (e *RPCError) Unwrap() error { return e.Err }

// FailuresError reports the CheckFailures a provider returned from an
// invoke or call. Client methods return it wrapped in an *RPCError; use
// errors.As.
type FailuresError struct {
	Token    string
	Failures []diag.CheckFailure
}

func (e *FailuresError) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		if f.Property == "" {
			parts[i] = f.Reason
		} else {
			parts[i] = fmt.Sprintf("%s (%s)", f.Reason, f.Property)
		}
	}
	return "provider reported failures: " + strings.Join(parts, "; ")
}

func wrapErr(op, target string, err error) error {
	if err == nil {
		return nil
	}
	return &RPCError{Op: op, Target: target, Err: err}
}
