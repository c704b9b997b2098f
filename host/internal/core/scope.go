package core

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/monitorclient"
)

// The request context: each request that runs an author's code (a
// component, a method, a function, a CRUD call, Configure) runs it with a
// context naming the provider instance serving it, with the configuration
// it had when the request came, and the resource the request is about,
// where log lines go. host.Config and host.Logger read it.

// scope is what a request's context carries.
type scope struct {
	p      *Provider
	urn    urn.URN
	config *configState
	// values are the request's own (inputs, state, stack config), whose
	// secrets a log line must not show; the configuration's are added.
	values []property.Map
}

type scopeKey struct{}

// enter is ctx for a request p serves about the resource u ("" for none),
// with its values.
func (p *Provider) enter(ctx context.Context, u urn.URN, values ...property.Map) context.Context {
	return context.WithValue(ctx, scopeKey{}, &scope{p: p, urn: u, config: p.configNow(), values: values})
}

func scopeOf(ctx context.Context) *scope {
	s, _ := ctx.Value(scopeKey{}).(*scope)
	return s
}

// ConfigOf is the configuration of the provider instance serving ctx's
// request, as C (host.Config): WithConfig's type, decoded when the engine
// configured the instance (zero before), or property.Map for the values
// as they are. Any other C, or a ctx of no request, is the author's
// mistake, which it panics with.
func ConfigOf[C any](ctx context.Context) C {
	var c C
	s := scopeOf(ctx)
	if s == nil {
		panic(fmt.Sprintf("host.Config[%T]: the context is not one the host gave a callback (pass on the ctx it got)", c))
	}
	if raw, ok := any(&c).(*property.Map); ok {
		*raw = s.config.values
		return c
	}
	want := reflect.TypeFor[C]()
	if sig := s.p.configSignature; sig == nil || sig.Args != want {
		configured := "there is none (host.WithConfig gives it)"
		if sig != nil {
			configured = "it is a " + sig.Args.String() + " (host.WithConfig)"
		}
		panic(fmt.Sprintf("host.Config[%s]: the provider's configuration is not a %s: %s; property.Map reads it raw", want, want, configured))
	}
	if v, ok := s.config.typed.(C); ok {
		return v
	}
	return c // not configured yet
}

// LoggerOf is a logger whose lines the engine shows the user, attached to
// the resource of ctx's request (host.Logger); outside a request, slog's
// default.
func LoggerOf(ctx context.Context) *slog.Logger {
	s := scopeOf(ctx)
	if s == nil {
		return slog.Default()
	}
	return slog.New(&engineHandler{s: s})
}

// engineHandler sends slog records to the engine's log: the message, then
// each attribute as key=value, with the request's secrets redacted.
type engineHandler struct {
	s      *scope
	attrs  string // formatted by WithAttrs
	prefix string // of WithGroup
}

func (h *engineHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *engineHandler) Handle(ctx context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	b.WriteString(h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		writeAttr(&b, h.prefix, a)
		return true
	})
	msg := redact.Of(slices.Concat(h.s.values, []property.Map{h.s.config.values})...).Redact(b.String())
	h.s.p.Log(ctx, severityOf(r.Level), h.s.urn, msg)
	return nil
}

func (h *engineHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	var b strings.Builder
	for _, a := range attrs {
		writeAttr(&b, h.prefix, a)
	}
	out := *h
	out.attrs += b.String()
	return &out
}

func (h *engineHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	out := *h
	out.prefix += name + "."
	return &out
}

// writeAttr writes a as " key=value", a group's attributes each with the
// group's name before its key.
func writeAttr(b *strings.Builder, prefix string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if a.Value.Kind() == slog.KindGroup {
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, g := range a.Value.Group() {
			writeAttr(b, prefix, g)
		}
		return
	}
	fmt.Fprintf(b, " %s%s=%s", prefix, a.Key, a.Value)
}

// severityOf is the engine's severity of an slog level.
func severityOf(l slog.Level) monitorclient.Severity {
	switch {
	case l < slog.LevelInfo:
		return monitorclient.SeverityDebug
	case l < slog.LevelWarn:
		return monitorclient.SeverityInfo
	case l < slog.LevelError:
		return monitorclient.SeverityWarning
	}
	return monitorclient.SeverityError
}
