package host

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
)

// PropertyError is one bad input: the property path and why it is wrong.
type PropertyError struct {
	Path   string
	Reason string
}

// InputError reports input a user got wrong. It reaches the engine as an
// InputPropertiesError (Construct), as CheckFailures (Check, Call, Invoke),
// or as an error message naming each property (other RPCs), so each bad
// property is shown to the user.
type InputError struct {
	Message    string // a summary; Properties say what is wrong
	Properties []PropertyError
}

// Error lists every property and reason, for Go callers and for RPCs whose
// errors the engine shows by their message alone.
func (e *InputError) Error() string {
	parts := make([]string, len(e.Properties))
	for i, p := range e.Properties {
		parts[i] = p.Path + ": " + p.Reason
	}
	if len(parts) == 0 {
		return e.Message
	}
	return e.Message + ": " + strings.Join(parts, "; ")
}

// inputPropertiesError converts to the SDK type the rpcerror package encodes
// into gRPC status details. Its message is only the summary: the engine
// prints each detail on a line of its own after it, with the value of that
// input (all of them for an empty path). So such a property is named in the
// message instead when it holds a secret in inputs, or has no path.
func (e *InputError) inputPropertiesError(inputs property.Map) *perrors.InputPropertiesError {
	msg := e.Message
	if msg == "" {
		msg = "invalid inputs"
	}
	var details []perrors.InputPropertyErrorDetails
	for _, p := range e.Properties {
		if p.Path == "" || secretAt(p.Path, inputs) {
			msg += "; " + p.Path + ": " + p.Reason
			continue
		}
		details = append(details, perrors.InputPropertyErrorDetails{PropertyPath: p.Path, Reason: p.Reason})
	}
	return perrors.NewInputPropertiesError(msg, details...)
}

// Errorf returns an [InputError] about one property, for component and
// method code that finds a bad argument the schema cannot express.
func Errorf(path, format string, args ...any) error {
	reason := fmt.Sprintf(format, args...)
	return &InputError{
		Message:    "invalid input",
		Properties: []PropertyError{{Path: path, Reason: reason}},
	}
}

// StepError says which resource failed, and in which step, when the cause is
// not the user's input: a failed child registration, an error returned by
// component code, or a panic in it.
//
// Its Error names the type and the resource, for logs and Go callers. What
// the engine gets leaves out what the engine prints itself: a failed
// Construct shows as "<type> resource '<name>' has a problem: <message>",
// a Call as "call of <method> returned an error: <message>", an Invoke as
// "invocation of <function> returned an error: <message>". So the message
// names only what those lines do not, e.g. a nested component that failed.
type StepError struct {
	Token string // type or method token
	Name  string // resource name, if any
	Step  string // e.g. "construct", "register child", "call"
	Err   error
	Panic bool   // the component code panicked
	Stack []byte // where it panicked; logged at debug level, not shown
}

func (e *StepError) Error() string {
	var b strings.Builder
	switch {
	case e.Token != "" && e.Name != "":
		fmt.Fprintf(&b, "%s %q: ", e.Token, e.Name)
	case e.Token != "":
		b.WriteString(e.Token + ": ")
	case e.Name != "":
		fmt.Fprintf(&b, "on %q: ", e.Name) // a Call's component; the engine names the method
	}
	// Without its token, the engine has said which step it was.
	if e.Step != "" && (e.Token != "" || !runStep(e.Step)) {
		b.WriteString(e.Step + ": ")
	}
	if e.Panic {
		code := "component"
		if e.Step == stepInvoke {
			code = "function"
		}
		fmt.Fprintf(&b, "panic in %s code: ", code)
	}
	fmt.Fprint(&b, e.Err)
	return b.String()
}

// The steps in which the author's own code runs.
const (
	stepConstruct = "construct"
	stepCall      = "call"
	stepInvoke    = "invoke"
)

func runStep(step string) bool {
	return step == stepConstruct || step == stepCall || step == stepInvoke
}

// engineNamed returns err as the engine should get it when it prints token,
// and name if not empty, before the message itself: a StepError about that
// resource without them. Other errors, about a nested component say, are
// left whole.
func engineNamed(err error, token, name string) error {
	se, ok := err.(*StepError)
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

func (e *StepError) Unwrap() error { return e.Err }

// asInputError finds an InputError anywhere in err's chain.
func asInputError(err error) (*InputError, bool) {
	var ie *InputError
	return ie, errors.As(err, &ie)
}
