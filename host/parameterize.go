package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/polyhost/polyhost/host/diag"

	"github.com/blang/semver"
)

// ParameterizeRequest asks a parameterized plugin which package to serve.
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

// Parameterized is the package a parameterized plugin serves.
type Parameterized struct {
	// Provider serves the package; its name and version are the package's.
	Provider *Provider
	// Value is the parameter the package's schema records, which programs
	// send back to register the package. For a request with a Value it
	// may be left empty: that one is kept.
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
		p.parameterize = fn
		return nil
	}
}

// parameterization is what a parameterized package's schema records: the
// plugin that serves it and the parameter.
type parameterization struct {
	BaseProvider struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"baseProvider"`
	Parameter []byte `json:"parameter"` // base64 in JSON, as the schema has it
}

// refusal is a Parameterize refusal that is not the function's: the
// plugin is not parameterized (unimplemented), or serves another package.
type refusal struct {
	msg           string
	unimplemented bool
}

func (r *refusal) Error() string { return r.msg }

// parameterize has the base provider's function choose the provider that
// serves every later request, once per process; asked again for the
// package it serves, it answers that.
func (s *server) parameterize(ctx context.Context, r ParameterizeRequest) (*Provider, error) {
	if s.base.parameterize == nil {
		return nil, &refusal{msg: fmt.Sprintf("provider %s is not parameterized (host.WithParameterize)", s.base.name), unimplemented: true}
	}
	s.paramMu.Lock()
	defer s.paramMu.Unlock()
	if cur := s.p(); cur != s.base {
		if r.Args == nil && cur.name == r.Name && cur.version == r.Version {
			return cur, nil
		}
		return nil, &refusal{msg: fmt.Sprintf("provider %s already serves package %s %s; it cannot serve another", s.base.name, cur.name, cur.version)}
	}
	got, err := s.base.parameterize(ctx, r)
	if err == nil {
		err = checkParameterized(r, got)
	}
	if err != nil {
		return nil, fmt.Errorf("parameterize %s: %w", s.base.name, err)
	}
	next := got.Provider
	next.param = &parameterization{Parameter: got.Value}
	if len(next.param.Parameter) == 0 {
		next.param.Parameter = r.Value
	}
	next.param.BaseProvider.Name, next.param.BaseProvider.Version = s.base.name, s.base.version
	next.setEngine(s.base.engineAddress())
	s.served.Store(next)
	return next, nil
}

// checkParameterized refuses a package other than the one the engine
// asked for: it would record resources under the name it asked for.
func checkParameterized(r ParameterizeRequest, got Parameterized) error {
	switch {
	case got.Provider == nil:
		return errors.New("the function returned no provider")
	case r.Args != nil && len(got.Value) == 0:
		return errors.New("the function returned no Value for the arguments: programs would have no parameter to register the package with")
	case r.Args != nil:
		return nil
	case got.Provider.name != r.Name:
		return fmt.Errorf("asked for package %q, the function returned a provider for %q", r.Name, got.Provider.name)
	}
	want, err := semver.Parse(r.Version)
	if err != nil {
		return &diag.InputError{Message: fmt.Sprintf("package %s: version %q is not semver", r.Name, r.Version)}
	}
	if have, _ := semver.Parse(got.Provider.version); !have.Equals(want) {
		return fmt.Errorf("asked for %s version %s, the function returned version %s", r.Name, r.Version, got.Provider.version)
	}
	return nil
}

// schemaJSON is the package's schema for GetSchema; a parameterized
// package's says which plugin serves it, with which parameter.
func (p *Provider) schemaJSON() ([]byte, error) {
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
