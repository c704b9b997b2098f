package host

import (
	"context"
	"errors"

	"github.com/polyhost/polyhost/host/internal/core"
)

// ParameterizeRequest names the package to serve: Args of `pulumi package
// add`, or a program's package Name, Version and Value.
type ParameterizeRequest = core.ParameterizeRequest

// Parameterized is the package a parameterized plugin serves.
type Parameterized struct {
	Provider *Provider // named and versioned as the package
	Value    []byte    // the schema's parameter; empty keeps the request's
}

// A ParameterizeFunc builds the provider of the package that req names.
type ParameterizeFunc func(ctx context.Context, req ParameterizeRequest) (Parameterized, error)

// WithParameterize makes the plugin parameterized, as a bridged provider
// is: fn's provider serves every request after the engine parameterizes
// it.
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
