package tfwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// newLogger adapts log to the hclog.Logger go-plugin writes its own lines
// to: a logger writing nowhere whose sink passes each line on (at Trace:
// go-plugin skips the stderr of a plugin whose logger is Off).
func newLogger(log func(level, msg string)) hclog.Logger {
	if log == nil {
		return hclog.NewNullLogger()
	}
	l := hclog.NewInterceptLogger(&hclog.LoggerOptions{Level: hclog.Trace, Output: io.Discard})
	l.RegisterSink(&sink{log})
	return l
}

type sink struct{ log func(level, msg string) }

func (s *sink) Accept(name string, level hclog.Level, msg string, args ...any) {
	kv := map[string]any{}
	for i := 0; i+1 < len(args); i += 2 {
		kv[fmt.Sprint(args[i])] = args[i+1]
	}
	if name != "" {
		kv["logger"] = name
	}
	s.log(level.String(), withPairs(msg, kv))
}

// logWriter takes the provider's stderr, which go-plugin forwards over
// gRPC, and passes each line on: hclog's JSON lines with their level, the
// others at debug, as go-plugin reads a plugin's stderr. Each line gets
// logger=<provider>.
type logWriter struct {
	log  func(level, msg string)
	name string
	buf  []byte
}

func newLogWriter(log func(level, msg string), name string) io.Writer {
	if log == nil {
		return io.Discard
	}
	return &logWriter{log: log, name: name}
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.line(bytes.TrimRight(w.buf[:i], "\r"))
		w.buf = w.buf[i+1:]
	}
}

func (w *logWriter) line(b []byte) {
	if len(b) == 0 {
		return
	}
	var entry map[string]any
	if json.Unmarshal(b, &entry) != nil || entry["@message"] == nil {
		w.log("debug", withPairs(string(b), map[string]any{"logger": w.name}))
		return
	}
	level, _ := entry["@level"].(string)
	if level == "" {
		level = "debug"
	}
	msg := fmt.Sprint(entry["@message"])
	for k := range entry {
		if strings.HasPrefix(k, "@") {
			delete(entry, k)
		}
	}
	entry["logger"] = w.name
	w.log(level, withPairs(msg, entry))
}

// withPairs appends " key=value" for each pair, in key order.
func withPairs(msg string, kv map[string]any) string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(msg)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, kv[k])
	}
	return b.String()
}
