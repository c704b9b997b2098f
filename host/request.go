package host

import (
	"context"
	"log/slog"

	"github.com/polyhost/polyhost/host/internal/core"
)

// Config is the configuration of the provider instance serving ctx's
// request, as WithConfig's C or property.Map; it panics for any other C.
func Config[C any](ctx context.Context) C { return core.ConfigOf[C](ctx) }

// Logger logs to the engine, attached to the resource of ctx's request,
// its secrets redacted.
func Logger(ctx context.Context) *slog.Logger { return core.LoggerOf(ctx) }
