package rpc

import (
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
)

// Errors cross the boundary here, as the core returns them (redacted, and
// an InputError of Construct already as the engine prints it), into the
// gRPC status the engine reads, and back for hosttest.

// toStatus is err as a gRPC status: bad user input becomes InvalidArgument
// with the whole text, since the engine shows these RPCs' errors by their
// message alone (a Configure error, at the next Construct or Check); an
// error that is a status already, from the wire, is left as it is.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(interface{ GRPCStatus() *status.Status }); ok {
		return err
	}
	if _, ok := asInputError(err); ok {
		return status.Error(codes.InvalidArgument, bounded(err.Error(), maxText))
	}
	return status.Error(codes.Unknown, bounded(err.Error(), maxText))
}

// constructStatus is toStatus for Construct: the engine prints a
// Construct error's InputPropertiesError details itself, one line per
// property under "<type> resource '<name>' has a problem: <message>", so
// an InputError goes out as its summary plus a detail per failure.
func constructStatus(err error) error {
	ie, ok := asInputError(err)
	if !ok {
		return toStatus(err)
	}
	failures, more := boundedFailures(ie.Failures)
	details := make([]perrors.InputPropertyErrorDetails, len(failures))
	for i, f := range failures {
		details[i] = perrors.InputPropertyErrorDetails{PropertyPath: f.Property, Reason: f.Reason}
	}
	msg := bounded(ie.Message, maxText)
	if more > 0 {
		msg += fmt.Sprintf(" (and %d more invalid properties)", more)
	}
	return rpcerror.WrapDetailedError(perrors.NewInputPropertiesError(msg, details...))
}

// crudStatus is toStatus for a CRUD call: a partial create or update
// carries the resource's ID and state, and inputs, so the engine records
// it.
func (s *server) crudStatus(err error, inputs property.Map) error {
	var pe *custom.PartialError
	if !errors.As(err, &pe) {
		return toStatus(err)
	}
	props, merr := s.toWire(pe.Outputs)
	if merr != nil {
		return toStatus(err)
	}
	ins, merr := s.toWire(inputs)
	if merr != nil {
		return toStatus(err)
	}
	return rpcerror.WithDetails(rpcerror.New(codes.Unknown, bounded(pe.Error(), maxText)),
		&pulumirpc.ErrorResourceInitFailed{Id: string(pe.ID), Properties: props, Inputs: ins, Reasons: []string{bounded(pe.Err.Error(), maxText)}})
}

// FromStatus is the error a program's engine reads from err, a status: an
// InputPropertiesError in its details comes back as a *diag.InputError,
// anything else as it is.
func FromStatus(err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	for _, d := range st.Details() {
		if ipe, ok := d.(*pulumirpc.InputPropertiesError); ok {
			out := &diag.InputError{Message: st.Message()}
			for _, e := range ipe.GetErrors() {
				out.Failures = append(out.Failures, diag.CheckFailure{Property: e.GetPropertyPath(), Reason: e.GetReason()})
			}
			return out
		}
	}
	return err
}

// badInput is the error for a request whose values do not decode.
func badInput(what string, err error) error {
	return status.Errorf(codes.InvalidArgument, "%s: %v", what, err)
}

// asInputError finds an InputError anywhere in err's chain.
func asInputError(err error) (*diag.InputError, bool) {
	var ie *diag.InputError
	return ie, errors.As(err, &ie)
}
