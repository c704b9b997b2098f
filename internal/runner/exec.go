package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/polyhost/polyhost/internal/engine"
)

// exitLoggedError is the exit status with which all three SDKs say "the error
// was already reported to the engine via Engine.Log".
const exitLoggedError = 32

// ExitError is returned by Run when the program ran but did not exit 0.
type ExitError struct {
	Runtime string // "go", "nodejs" or "python"
	Dir     string // program directory
	Code    int    // exit status; -1 when killed by a signal
	Signal  string // the signal, when killed by one
	Stderr  string // last lines of stderr, secret config values redacted
}

// Logged reports whether the program said (exit status 32) that it had
// already reported its error through Engine.Log.
func (e *ExitError) Logged() bool { return e.Code == exitLoggedError }

func (e *ExitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s program in %s ", e.Runtime, e.Dir)
	switch {
	case e.Signal != "":
		fmt.Fprintf(&b, "was killed by signal %s", e.Signal)
	case e.Logged():
		fmt.Fprintf(&b, "exited with status %d: the error was already reported via Engine.Log", e.Code)
	default:
		fmt.Fprintf(&b, "exited with status %d", e.Code)
	}
	if e.Stderr == "" {
		b.WriteString(" (stderr empty)")
	} else {
		b.WriteString("\nstderr (tail):\n")
		b.WriteString(e.Stderr)
	}
	return b.String()
}

// ErrDepsMissing is wrapped by the error Run returns when a Node or Python
// program's dependencies (@pulumi/pulumi, the pulumi package) are not
// installed; the message says where they were looked for.
var ErrDepsMissing = errors.New("the program's dependencies are missing")

// launch is one program process to start and wait for.
type launch struct {
	runtime string
	dir     string // program directory, for messages
	cwd     string
	path    string
	args    []string
	env     []string
	secrets []string // values to redact from what we echo
}

const (
	tailBytes = 64 << 10 // stderr kept in memory
	tailLines = 40       // stderr lines put into an ExitError
)

func (l launch) run(ctx context.Context) error {
	// The thread that starts the program must live as long as it does
	// (dieWithRunner): no other goroutine may end it meanwhile.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.CommandContext(ctx, l.path, l.args...)
	cmd.Dir = l.cwd
	cmd.Env = l.env
	setProcessGroup(cmd)
	// On cancellation kill the whole group: language runtimes may have children.
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	// Stop waiting for output pipes held open by stray grandchildren.
	cmd.WaitDelay = 5 * time.Second

	red := newRedactor(l.secrets)
	tail := &tailBuffer{max: tailBytes}
	stderr := io.Writer(tail)
	var stdout io.Writer = io.Discard
	if verbose() {
		prefix := "[" + l.runtime + "] "
		errEcho := &lineWriter{w: os.Stderr, prefix: prefix, red: red}
		outEcho := &lineWriter{w: os.Stderr, prefix: prefix, red: red}
		defer errEcho.Flush()
		defer outEcho.Flush()
		stderr, stdout = io.MultiWriter(tail, errEcho), outEcho
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr

	err := cmd.Run()
	// Whatever the outcome, leave no process of the group behind.
	if cmd.Process != nil {
		_ = killProcessGroup(cmd)
	}
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s program in %s: stopped (process group killed): %w", l.runtime, l.dir, ctxErr)
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		return fmt.Errorf("%s program in %s: could not run %s: %w", l.runtime, l.dir, l.path, err)
	}
	out := &ExitError{
		Runtime: l.runtime,
		Dir:     l.dir,
		Code:    exitErr.ExitCode(),
		Stderr:  lastLines(red.redact(tail.Text()), tailLines),
	}
	if out.Code < 0 {
		out.Signal = exitSignal(exitErr)
	}
	return out
}

// secretValues lists the values of the secret config keys, for redaction.
func secretValues(info engine.RunInfo) []string {
	var vals []string
	for _, k := range info.SecretKeys {
		if v := info.Config[k]; v != "" {
			vals = append(vals, v)
		}
	}
	return vals
}

// redactor replaces secret values (raw, JSON-escaped, and line by line for
// multi-line secrets) with "[secret]".
type redactor struct{ olds []string }

func newRedactor(secrets []string) *redactor {
	seen := map[string]bool{}
	var olds []string
	add := func(s string) {
		if strings.TrimSpace(s) != "" && !seen[s] {
			seen[s] = true
			olds = append(olds, s)
		}
	}
	for _, s := range secrets {
		add(s)
		if q, err := json.Marshal(s); err == nil {
			add(string(q[1 : len(q)-1]))
		}
		if strings.Contains(s, "\n") {
			for _, line := range strings.Split(s, "\n") {
				add(strings.TrimRight(line, "\r"))
			}
		}
	}
	// Longest first, so a secret containing another is replaced whole.
	sort.Slice(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	return &redactor{olds: olds}
}

func (r *redactor) redact(s string) string {
	for _, old := range r.olds {
		s = strings.ReplaceAll(s, old, "[secret]")
	}
	return s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	trimmed bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.trimmed = true
	}
	return len(p), nil
}

// Text returns the kept bytes; when the start was cut off, the partial
// first line is dropped so no fragment of a secret escapes redaction.
func (t *tailBuffer) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.trimmed {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	return string(b)
}

func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[... %d earlier lines]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// lineWriter echoes complete lines, redacted and prefixed.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	red    *redactor
	buf    []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		fmt.Fprintf(l.w, "%s%s\n", l.prefix, l.red.redact(string(l.buf[:i])))
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

func (l *lineWriter) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		fmt.Fprintf(l.w, "%s%s\n", l.prefix, l.red.redact(string(l.buf)))
		l.buf = nil
	}
}

func verbose() bool {
	v := os.Getenv("POLYHOST_RUNNER_VERBOSE")
	return v != "" && v != "0" && v != "false"
}

// environ returns the current environment without the given keys and
// without any key starting with one of the given prefixes.
func environ(drop []string, dropPrefixes ...string) []string {
	skip := map[string]bool{}
	for _, k := range drop {
		skip[k] = true
	}
	var env []string
outer:
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if skip[k] {
			continue
		}
		for _, p := range dropPrefixes {
			if strings.HasPrefix(k, p) {
				continue outer
			}
		}
		env = append(env, kv)
	}
	return env
}

// configJSON encodes the config map; nil stays "" (not passed), as the hosts do.
func configJSON(cfg map[string]string) (string, error) {
	if cfg == nil {
		return "", nil
	}
	b, err := json.Marshal(cfg)
	return string(b), err
}

// secretKeysJSON encodes the secret key list; nil becomes "[]", as the hosts do.
func secretKeysJSON(keys []string) string {
	if keys == nil {
		return "[]"
	}
	b, _ := json.Marshal(keys)
	return string(b)
}
