package host

import (
	"context"
	"log/slog"

	"github.com/polyhost/polyhost/host/internal/core"
)

// Config is the configuration of the provider instance serving the request
// of ctx (the context any of the author's functions is given, or one
// derived from it: a component's, a method's, a function's, a custom
// resource's method's, WithConfig's), as C: the type [WithConfig] gives,
// decoded when the engine configured the instance (C's zero before), or
// property.Map for the values as they are, secrets marked. In a preview a
// value may be unknown: a plain field then holds its zero value. Two
// differently configured providers of one program are two instances, and
// each request sees its own. Any other C, or a ctx the host gave no
// function, is a mistake in the plugin's code: Config panics, naming it.
func Config[C any](ctx context.Context) C { return core.ConfigOf[C](ctx) }

// Logger is a logger whose lines the engine shows the user, attached to
// the resource the request of ctx is about: the component (in a method,
// the one it is called on), the custom resource; none for a function or
// WithConfig's function. Debug, Info, Warn and Error are the engine's
// severities (the CLI shows debug lines with --debug only), and attributes
// follow the message as key=value. The secrets of the request (its inputs,
// the configuration) are redacted from each line. Outside a request it is
// slog's default logger.
func Logger(ctx context.Context) *slog.Logger { return core.LoggerOf(ctx) }
