// Package diag holds what reaches a user as a problem: a [CheckFailure]
// names one wrong input, an [InputError] says the user's input is wrong
// (make one with [Errorf]), and a [StepError] says which step of the
// provider failed for another cause. Component, method, function and
// backend code returns them; the host turns them into what the engine
// shows.
package diag

import (
	"fmt"
	"strings"
)

// CheckFailure is one wrong input: its property path (a.b[0]["key"], as
// the engine writes paths) and why it is wrong.
type CheckFailure struct {
	Property string
	Reason   string
}

func (f CheckFailure) String() string { return f.Property + ": " + f.Reason }

// InputError reports input a user got wrong. It reaches the engine as an
// InputPropertiesError (Construct), as check failures (Check, Call,
// Invoke), or as an error message naming each property (other calls), so
// each wrong property is shown to the user.
type InputError struct {
	Message  string // a summary; Failures say what is wrong
	Failures []CheckFailure
}

// Error lists every property and reason.
func (e *InputError) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		parts[i] = f.String()
	}
	if len(parts) == 0 {
		return e.Message
	}
	return e.Message + ": " + strings.Join(parts, "; ")
}

// Errorf returns an [InputError] about one property, for code that finds a
// wrong argument the schema cannot express.
func Errorf(path, format string, args ...any) error {
	return &InputError{Message: "invalid input", Failures: []CheckFailure{{Property: path, Reason: fmt.Sprintf(format, args...)}}}
}

// StepError says which resource failed, and in which step, when the cause
// is not the user's input: a failed child registration, an error returned
// by component code, or a panic in it.
//
// Its Error names the type and the resource. What the engine gets leaves
// out what the engine prints itself: a failed Construct shows as "<type>
// resource '<name>' has a problem: <message>", a Call as "call of <method>
// returned an error: <message>", an Invoke as "invocation of <function>
// returned an error: <message>".
type StepError struct {
	Token string // type or method token
	Name  string // resource name, if any
	Step  string // e.g. StepConstruct, "register child"
	Err   error
	Panic bool   // the component code panicked
	Stack []byte // where it panicked; logged at debug level, not shown
}

// The steps in which the author's own code runs.
const (
	StepConstruct = "construct"
	StepCall      = "call"
	StepInvoke    = "invoke"
)

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
	if e.Step != "" && (e.Token != "" || !authorStep(e.Step)) {
		b.WriteString(e.Step + ": ")
	}
	if e.Panic {
		code := "component"
		if e.Step == StepInvoke {
			code = "function"
		}
		fmt.Fprintf(&b, "panic in %s code: ", code)
	}
	fmt.Fprint(&b, e.Err)
	return b.String()
}

func (e *StepError) Unwrap() error { return e.Err }

func authorStep(step string) bool {
	return step == StepConstruct || step == StepCall || step == StepInvoke
}
