// Package diag holds what reaches a user as a problem: a [CheckFailure]
// names one wrong input, an [InputError] says the user's input is wrong
// (make one with [Errorf]), and a [StepError] says which step of the
// provider failed for another cause (make one with [Failf], which records
// where the author's code failed). Component, method, function and
// backend code returns them; the host turns them into what the engine
// shows.
package diag

import (
	"fmt"
	"path"
	"reflect"
	"runtime"
	"runtime/debug"
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

// Failf returns an error for the author's code to return when it fails
// for a cause that is not the user's input (for that, see [Errorf]): the
// user sees its message and, under it, the frames of the author's code
// that called Failf, each with its file and line, as a Python provider
// shows a traceback. It formats as fmt.Errorf does: %w wraps an error.
func Failf(format string, args ...any) error {
	return &StepError{Err: fmt.Errorf(format, args...), Frames: Callers(1)}
}

// StepError says which resource failed, and in which step, when the cause
// is not the user's input: a failed child registration, an error returned
// by component code ([Failf] makes one), or a panic in it.
//
// Its Error names the type and the resource, then the message, then the
// frames of the author's code in Frames (those of the host and of Go's
// runtime left out). What the engine gets leaves out what the engine
// prints itself: a failed Construct shows as "<type> resource '<name>' has
// a problem: <message>", a Call as "call of <method> returned an error:
// <message>", an Invoke as "invocation of <function> returned an error:
// <message>".
type StepError struct {
	Token string // type or method token
	Name  string // resource name, if any
	Step  string // e.g. StepConstruct, "register child"
	Err   error
	Panic bool   // the component code panicked
	Stack []byte // where it panicked, every goroutine's frame; logged at debug level, not shown
	// Frames are the stack where the author's code failed, innermost
	// first: where it panicked, or where it called Failf.
	Frames []runtime.Frame
}

// Callers are the frames of the calling goroutine's stack, innermost
// first, skip frames above its caller left out: Callers(0) starts at the
// function that calls it. A [StepError] keeps them in Frames.
func Callers(skip int) []runtime.Frame {
	pcs := make([]uintptr, 64)
	pcs = pcs[:runtime.Callers(skip+2, pcs)]
	var out []runtime.Frame
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		out = append(out, f)
		if !more {
			return out
		}
	}
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
		switch e.Step {
		case StepInvoke:
			code = "function"
		case "check", "diff", "create", "read", "update", "delete":
			code = "custom resource"
		case "configure":
			code = "configuration"
		}
		fmt.Fprintf(&b, "panic in %s code: ", code)
	}
	fmt.Fprint(&b, e.Err)
	for _, f := range authorFrames(e.Frames) {
		fmt.Fprintf(&b, "\n    at %s (%s:%d)", shortName(f.Function), trimPath(f), f.Line)
	}
	return b.String()
}

// hostPath is the import path of the host, the parent of this package;
// rpcPath that of its wire adapter, where every request enters it; hostDir
// the directory of its source (a generic function of the host runs under
// the name of the package that instantiates it, but in the host's file).
var (
	hostPath = strings.TrimSuffix(reflect.TypeFor[StepError]().PkgPath(), "/diag")
	rpcPath  = hostPath + "/internal/rpc"
	hostDir  = func() string {
		_, file, _, _ := runtime.Caller(0)
		return path.Dir(path.Dir(file)) + "/"
	}()
)

// authorFrames are the frames of the author's code among fs: those of the
// host and of Go's runtime are left out, and so is every frame from the
// one where the request entered the host (its wire adapter) outwards.
func authorFrames(fs []runtime.Frame) []runtime.Frame {
	var out []runtime.Frame
	for _, f := range fs {
		pkg := funcPackage(f.Function)
		switch {
		case pkg == rpcPath:
			return out
		case pkg == hostPath || strings.HasPrefix(pkg, hostPath+"/") || pkg == "runtime" || f.Function == "":
			continue
		case strings.HasPrefix(f.File, hostDir) && !strings.HasSuffix(f.File, "_test.go"):
			continue
		}
		out = append(out, f)
	}
	return out
}

// funcPackage is the import path of a function named as runtime names it:
// "example.com/pkg.(*T).method.func1" is of "example.com/pkg".
func funcPackage(name string) string {
	slash := strings.LastIndexByte(name, '/')
	if dot := strings.IndexByte(name[slash+1:], '.'); dot >= 0 {
		return name[:slash+1+dot]
	}
	return name
}

// trimPath is the file of a frame as -trimpath writes it: its package's
// import path and the file's name (a file of the module cache as it is
// there, module@version/...), never a folder of the machine that built
// the plugin.
func trimPath(f runtime.Frame) string {
	if _, rest, ok := strings.Cut(f.File, "/pkg/mod/"); ok {
		return rest
	}
	pkg := funcPackage(f.Function)
	if pkg == "main" {
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Path != "" {
			pkg = bi.Path
		}
	}
	if strings.HasSuffix(f.File, "_test.go") {
		pkg = strings.TrimSuffix(pkg, "_test") // an external test package's
	}
	return pkg + "/" + path.Base(f.File)
}

// shortName is a function's name without its package's path:
// "example.com/pkg.(*T).method" is "pkg.(*T).method".
func shortName(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}

func (e *StepError) Unwrap() error { return e.Err }

func authorStep(step string) bool {
	return step == StepConstruct || step == StepCall || step == StepInvoke
}
