package host

import (
	"context"
	"errors"

	"github.com/polyhost/polyhost/host/internal/core"
)

// ParameterizeRequest asks a parameterized plugin which package to serve:
// Args, the words after the plugin's name of `pulumi package add`, or the
// Name, Version and Value of a package a program registered.
type ParameterizeRequest = core.ParameterizeRequest

// Parameterized is the package a parameterized plugin serves.
type Parameterized struct {
	Provider *Provider // named and versioned as the package
	// Value is the parameter the package's schema records; for a request
	// with a Value, empty keeps that one.
	Value []byte
}

// A ParameterizeFunc builds the provider of the package that req names.
type ParameterizeFunc func(ctx context.Context, req ParameterizeRequest) (Parameterized, error)

// WithParameterize makes the plugin parameterized, as a bridged provider
// is: once the engine (or `pulumi package add`) parameterizes it, fn's
// provider serves every later request in its place, the schema included.
// The engine starts one plugin process per parameterized package.
func WithParameterize(fn ParameterizeFunc) Option {
	return func(p *Provider) error {
		if fn == nil {
			return errors.New("WithParameterize: nil function")
		}
		p.core.SetParameterize(func(ctx context.Context, req ParameterizeRequest) (*core.Provider, []byte, error) {
			got, err := fn(ctx, req)
			if got.Provider == nil {
				return nil, got.Value, err
			}
			return got.Provider.core, got.Value, err
		})
		return nil
	}
}
