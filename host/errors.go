package host

import (
	"errors"

	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
)

// inputPropertiesError converts to the SDK type the rpcerror package encodes
// into gRPC status details. Its message is only the summary: the engine
// prints each detail on a line of its own after it, with the value of that
// input (all of them for an empty path). So such a property is named in the
// message instead when it holds a secret in inputs, or has no path.
func inputPropertiesError(e *diag.InputError, inputs property.Map) *perrors.InputPropertiesError {
	msg := e.Message
	if msg == "" {
		msg = "invalid inputs"
	}
	var details []perrors.InputPropertyErrorDetails
	for _, f := range e.Failures {
		if f.Property == "" || secretAt(f.Property, inputs) {
			msg += "; " + f.String()
			continue
		}
		details = append(details, perrors.InputPropertyErrorDetails{PropertyPath: f.Property, Reason: f.Reason})
	}
	return perrors.NewInputPropertiesError(msg, details...)
}

// engineNamed returns err as the engine should get it when it prints token,
// and name if not empty, before the message itself: a StepError about that
// resource without them. Other errors, about a nested component say, are
// left whole.
func engineNamed(err error, token, name string) error {
	se, ok := err.(*diag.StepError)
	if !ok || se.Token != token || (name != "" && se.Name != name) {
		return err
	}
	short := *se
	short.Token = ""
	if name != "" {
		short.Name = ""
	}
	return &short
}

// asInputError finds an InputError anywhere in err's chain.
func asInputError(err error) (*diag.InputError, bool) {
	var ie *diag.InputError
	return ie, errors.As(err, &ie)
}
