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

// Tokens served with the Go SDK (host/gosdk) are bridged: the Go SDK's
// provider.Construct and provider.Call build them from the protocol's
// request, which the core hands over without reading it; the host checks
// their inputs and outputs against the schema and contains their panics.

// BridgeConstruct builds a component from the protocol's ConstructRequest,
// req, answering with its ConstructResponse. engineAddr is the engine's
// address, for the SDK's logging connection; inputs are the request's
// inputs as the host read them, with their markers, already checked.
type BridgeConstruct func(ctx context.Context, engineAddr string, inputs property.Map, req any) (any, error)

// BridgeCall serves a method from the protocol's CallRequest, answering
// with its CallResponse; args as inputs above.
type BridgeCall func(ctx context.Context, engineAddr string, args property.Map, req any) (any, error)

// Bridged serves one token with the Go SDK: a component (Construct) or a
// method (Call). Args and Result are the Go types of its arguments and of
// its component or method result, and Fn the author's function (for its
// doc comment): the schema is built from them, or checked against them.
type Bridged struct {
	Construct    BridgeConstruct
	Call         BridgeCall
	Args, Result reflect.Type
	Fn           any
}

// AddBridged serves token with b.
func (p *Provider) AddBridged(token string, b Bridged) error {
	if p.serves(token) {
		return fmt.Errorf("%s registered twice", token)
	}
	if b.Call != nil && !strings.Contains(token, "/") {
		return fmt.Errorf("method token %q must have the form pkg:module:Type/method", token)
	}
	p.bridged[token] = b
	if b.Args != nil {
		p.signatures[token] = goschema.Signature{Args: b.Args, Result: b.Result, Fn: b.Fn}
	}
	return nil
}

// BridgedConstruct is the Go SDK's builder of component token, if any.
func (p *Provider) BridgedConstruct(token string) BridgeConstruct { return p.bridged[token].Construct }

// BridgedCall is the Go SDK's server of method token, if any.
func (p *Provider) BridgedCall(token string) BridgeCall { return p.bridged[token].Call }

// serves reports whether token is already served as a component or method.
func (p *Provider) serves(token string) bool {
	_, comp := p.components[token]
	_, meth := p.methods[token]
	_, bridged := p.bridged[token]
	return comp || meth || bridged
}

// componentTokens are the component types served, for error messages.
func (p *Provider) componentTokens() map[string]bool {
	out := map[string]bool{}
	for t := range p.components {
		out[t] = true
	}
	for t, h := range p.bridged {
		if h.Construct != nil {
			out[t] = true
		}
	}
	return out
}

// methodTokens are the methods served, sorted.
func (p *Provider) methodTokens() []string {
	out := slices.Collect(maps.Keys(p.methods))
	for t, h := range p.bridged {
		if h.Call != nil {
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

// ConstructBridged builds a component with the Go SDK's b, which gets raw,
// the protocol's request, as it came; outputs reads the URN and state of
// its answer, for the check against the schema. Its errors are as
// Construct's.
func (p *Provider) ConstructBridged(ctx context.Context, req ConstructRequest, b BridgeConstruct, raw any, outputs func(resp any) (urn.URN, property.Map, error)) (any, error) {
	resp, err := p.constructBridged(ctx, req, b, raw, outputs)
	if err != nil {
		return nil, constructInputError(p.Failed(ctx, err, "", "", req.Inputs, req.Info.Config), req.Inputs)
	}
	return resp, nil
}

func (p *Provider) constructBridged(ctx context.Context, req ConstructRequest, b BridgeConstruct, raw any, outputs func(resp any) (urn.URN, property.Map, error)) (any, error) {
	if err := p.checkInputs(req.Type, req.Inputs); err != nil {
		return nil, err
	}
	resp, err := runSafely(p.enter(ctx, "", req.Inputs, req.Info.Config), req.Type, req.Name, func(ctx context.Context) (any, error) {
		return b(ctx, p.EngineAddress(), req.Inputs, raw)
	})
	if err != nil {
		return nil, err
	}
	u, state, err := outputs(resp)
	if err == nil {
		err = p.checkOutputs(ctx, req.Type, req.Name, u, state)
	}
	return resp, err
}

// CallBridged serves a method with the Go SDK's b, which gets raw, the
// protocol's request, as it came; results reads its answer's return
// values, or says it failed. A Call's arguments the host refuses, or the
// method does, come back as failures, redacted as Invoke's are.
func (p *Provider) CallBridged(ctx context.Context, req CallRequest, b BridgeCall, raw any, results func(resp any) (ret property.Map, failed bool, err error)) (any, []diag.CheckFailure, error) {
	if monitor, err := p.monitors.Get(ctx, req.MonitorAddr); err == nil {
		completeCallInfo(&req, monitor)
	}
	if _, _, failures := p.callArgs(req); len(failures) > 0 {
		return nil, printable(failures, req.Args, req.Info.Config), nil
	}
	resp, err := runSafely(p.enter(ctx, "", req.Args, req.Info.Config), req.Token, "", func(ctx context.Context) (any, error) {
		return b(ctx, p.EngineAddress(), req.Args, raw)
	})
	if ie, ok := asInputError(err); ok { // bad arguments, as the raw path reports them
		return nil, printable(ie.Failures, req.Args, req.Info.Config), nil
	}
	if err == nil {
		var ret property.Map
		var failed bool
		if ret, failed, err = results(resp); err == nil && !failed {
			err = p.checkOutputs(ctx, req.Token, "", "", ret)
		}
	}
	if err != nil {
		return nil, nil, p.Failed(ctx, err, "", "", req.Args, req.Info.Config)
	}
	return resp, nil, nil
}
