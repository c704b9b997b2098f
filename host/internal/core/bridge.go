package core

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/goschema"
)

// Tokens served with the Go SDK (host/gosdk) are served elsewhere: the
// adapter holds their handlers, which build them from the protocol's
// request with the Go SDK's provider.Construct and provider.Call, and the
// core knows only that a token is served elsewhere. The host checks their
// inputs and outputs against the schema, contains their panics and
// redacts their errors (ConstructElsewhere, CallElsewhere).

// Elsewhere is a token served elsewhere: a component (Construct) or a
// method (Call). Args and Result are the Go types of its arguments and of
// its component or method result, and Fn the author's function (for its
// doc comment): the schema is built from them, or checked against them.
type Elsewhere struct {
	Method       bool
	Args, Result reflect.Type
	Fn           any
}

// Handlers are the handlers of the tokens served elsewhere, which the
// core keeps for the adapter without calling them (rpc.GoSDK).
type Handlers interface {
	// Handles reports whether a handler serves token.
	Handles(token string) bool
}

// AddElsewhere says token is served elsewhere, as e.
func (p *Provider) AddElsewhere(token string, e Elsewhere) error {
	if p.serves(token) {
		return fmt.Errorf("%s registered twice", token)
	}
	if e.Method && !strings.Contains(token, "/") {
		return fmt.Errorf("method token %q must have the form pkg:module:Type/method", token)
	}
	p.elsewhere[token] = e
	if e.Args != nil {
		p.signatures[token] = goschema.Signature{Args: e.Args, Result: e.Result, Fn: e.Fn}
	}
	return nil
}

// Handlers are the adapter's handlers of the tokens served elsewhere, or
// nil.
func (p *Provider) Handlers() Handlers { return p.handlers }

// SetHandlers keeps the adapter's handlers of the tokens served elsewhere.
func (p *Provider) SetHandlers(h Handlers) { p.handlers = h }

// SetSDKTypes says what the Go SDK's types stand for in the schema built
// from, or checked against, the Go types (host/gosdk).
func (p *Provider) SetSDKTypes(t goschema.SDKTypes) { p.sdkTypes = t }

// serves reports whether token is already served as a component or method.
func (p *Provider) serves(token string) bool {
	_, comp := p.components[token]
	_, meth := p.methods[token]
	_, elsewhere := p.elsewhere[token]
	return comp || meth || elsewhere
}

// componentTokens are the component types served, for error messages.
func (p *Provider) componentTokens() map[string]bool {
	out := map[string]bool{}
	for t := range p.components {
		out[t] = true
	}
	for t, e := range p.elsewhere {
		if !e.Method {
			out[t] = true
		}
	}
	return out
}

// methodTokens are the methods served, sorted.
func (p *Provider) methodTokens() []string {
	out := slices.Collect(maps.Keys(p.methods))
	for t, e := range p.elsewhere {
		if e.Method {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// EngineAddress is the engine's address, from argv, Handshake or Attach.
func (p *Provider) EngineAddress() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.engineAddr
}

// ConstructElsewhere builds a component served elsewhere with build,
// given the engine's address (for the Go SDK's logging connection) and the
// request's inputs as the host read them, with their markers, checked;
// outputs then reads the URN and state of build's answer, for the check
// against the schema. Its errors are as Construct's.
func (p *Provider) ConstructElsewhere(ctx context.Context, req ConstructRequest, build func(ctx context.Context, engineAddr string, inputs property.Map) error, outputs func() (urn.URN, property.Map, error)) error {
	if err := p.constructElsewhere(ctx, req, build, outputs); err != nil {
		return constructInputError(p.Failed(ctx, err, "", "", req.Inputs, req.Info.Config), req.Inputs)
	}
	return nil
}

func (p *Provider) constructElsewhere(ctx context.Context, req ConstructRequest, build func(ctx context.Context, engineAddr string, inputs property.Map) error, outputs func() (urn.URN, property.Map, error)) error {
	if err := p.checkInputs(req.Type, req.Inputs); err != nil {
		return err
	}
	_, err := runSafely(p.enter(ctx, "", req.Inputs, req.Info.Config), req.Type, req.Name, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, build(ctx, p.EngineAddress(), req.Inputs)
	})
	if err != nil {
		return err
	}
	u, state, err := outputs()
	if err == nil {
		err = p.checkOutputs(ctx, req.Type, req.Name, u, state)
	}
	return err
}

// CallElsewhere serves a method served elsewhere with call, given the
// engine's address and the request's arguments as ConstructElsewhere's
// build is; results then reads the return values of call's answer, or
// says it failed. A Call's arguments the host refuses, or the method does,
// come back as failures, redacted as Invoke's are.
func (p *Provider) CallElsewhere(ctx context.Context, req CallRequest, call func(ctx context.Context, engineAddr string, args property.Map) error, results func() (ret property.Map, failed bool, err error)) ([]diag.CheckFailure, error) {
	if monitor, err := p.monitors.Get(ctx, req.MonitorAddr); err == nil {
		completeCallInfo(&req, monitor)
	}
	if _, _, failures := p.callArgs(req); len(failures) > 0 {
		return printable(failures, req.Args, req.Info.Config), nil
	}
	_, err := runSafely(p.enter(ctx, "", req.Args, req.Info.Config), req.Token, "", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, call(ctx, p.EngineAddress(), req.Args)
	})
	if ie, ok := asInputError(err); ok { // bad arguments, as the raw path reports them
		return printable(ie.Failures, req.Args, req.Info.Config), nil
	}
	if err == nil {
		var ret property.Map
		var failed bool
		if ret, failed, err = results(); err == nil && !failed {
			err = p.checkOutputs(ctx, req.Token, "", "", ret)
		}
	}
	if err != nil {
		return nil, p.Failed(ctx, err, "", "", req.Args, req.Info.Config)
	}
	return nil, nil
}
