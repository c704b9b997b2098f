package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/blang/semver"

	"github.com/polyhost/polyhost/host/diag"
)

// ParameterizeRequest asks a parameterized plugin which package to serve
// (host.ParameterizeRequest).
// It holds either Args, the words after the plugin's name on the command
// line of `pulumi package add` or `pulumi package get-schema`, or the
// package a program registered: Name, Version and Value, as the package's
// schema recorded them.
type ParameterizeRequest struct {
	Args    []string
	Name    string
	Version string
	Value   []byte
}

// ParameterizeFunc builds the provider of the package that req names, and
// the parameter its schema records (host.WithParameterize).
type ParameterizeFunc func(ctx context.Context, req ParameterizeRequest) (*Provider, []byte, error)

// SetParameterize makes the plugin parameterized with fn.
func (p *Provider) SetParameterize(fn ParameterizeFunc) { p.parameterize = fn }

// parameterization is what a parameterized package's schema records: the
// plugin that serves it and the parameter.
type parameterization struct {
	BaseProvider struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"baseProvider"`
	Parameter []byte `json:"parameter"` // base64 in JSON, as the schema has it
}

// Plugin is what one plugin process serves: the provider it was built
// with, and the one the engine's Parameterize chose in its place, if any.
type Plugin struct {
	base    *Provider
	serving atomic.Pointer[Provider]
	mu      sync.Mutex // one Parameterize at a time
}

// NewPlugin is a plugin process serving p.
func NewPlugin(p *Provider) *Plugin {
	pl := &Plugin{base: p}
	pl.serving.Store(p)
	return pl
}

// Base is the provider the plugin was built with.
func (pl *Plugin) Base() *Provider { return pl.base }

// Serving is the provider serving requests: the one Parameterize chose, if
// any.
func (pl *Plugin) Serving() *Provider { return pl.serving.Load() }

// RefusedError is a Parameterize refused for no fault of the function's:
// the plugin is not parameterized (NotParameterized), or already serves
// another package.
type RefusedError struct {
	Msg              string
	NotParameterized bool
}

func (r *RefusedError) Error() string { return r.Msg }

// Parameterize has the base provider's function choose the provider that
// serves every later request, once per process; asked again for the
// package it serves, it answers that.
func (pl *Plugin) Parameterize(ctx context.Context, r ParameterizeRequest) (*Provider, error) {
	base := pl.base
	if base.parameterize == nil {
		return nil, &RefusedError{Msg: fmt.Sprintf("provider %s is not parameterized (host.WithParameterize)", base.name), NotParameterized: true}
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if cur := pl.Serving(); cur != base {
		if r.Args == nil && cur.name == r.Name && cur.version == r.Version {
			return cur, nil
		}
		return nil, &RefusedError{Msg: fmt.Sprintf("provider %s already serves package %s %s; it cannot serve another", base.name, cur.name, cur.version)}
	}
	next, value, err := base.parameterize(ctx, r)
	if err == nil {
		err = checkParameterized(r, next, value)
	}
	if err != nil {
		return nil, fmt.Errorf("parameterize %s: %w", base.name, err)
	}
	next.param = &parameterization{Parameter: value}
	if len(next.param.Parameter) == 0 {
		next.param.Parameter = r.Value
	}
	next.param.BaseProvider.Name, next.param.BaseProvider.Version = base.name, base.version
	next.SetEngine(base.EngineAddress())
	base.AddCloser(next.Close) // what it started (a backend's processes) ends with the plugin
	pl.serving.Store(next)
	return next, nil
}

// checkParameterized refuses a package other than the one the engine
// asked for: it would record resources under the name it asked for.
func checkParameterized(r ParameterizeRequest, got *Provider, value []byte) error {
	switch {
	case got == nil:
		return errors.New("the function returned no provider")
	case r.Args != nil && len(value) == 0:
		return errors.New("the function returned no Value for the arguments: programs would have no parameter to register the package with")
	case r.Args != nil:
		return nil
	case got.name != r.Name:
		return fmt.Errorf("asked for package %q, the function returned a provider for %q", r.Name, got.name)
	}
	want, err := semver.Parse(r.Version)
	if err != nil {
		return &diag.InputError{Message: fmt.Sprintf("package %s: version %q is not semver", r.Name, r.Version)}
	}
	if have, _ := semver.Parse(got.version); !have.Equals(want) {
		return fmt.Errorf("asked for %s version %s, the function returned version %s", r.Name, r.Version, got.version)
	}
	return nil
}

// SchemaJSON is the package's schema for GetSchema; a parameterized
// package's says which plugin serves it, with which parameter.
func (p *Provider) SchemaJSON() ([]byte, error) {
	if p.schema == nil {
		return []byte("{}"), nil
	}
	out := p.schema.JSON()
	if p.param == nil {
		return out, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, err
	}
	doc["parameterization"] = p.param
	return json.Marshal(doc)
}
