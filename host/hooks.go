package host

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/internal/hook"
)

// Tokens served through host/gosdk, with the Go SDK's provider.Construct
// and provider.Call, are hooks: the host checks their inputs and outputs
// against the schema and contains their panics; the SDK does the rest.

func init() {
	hook.Register = func(p any, token string, h hook.Handler) error {
		return p.(*Provider).addHook(token, h)
	}
	hook.IsEnum = func(t reflect.Type) bool {
		_, ok := enumValues(t)
		return ok
	}
}

func (p *Provider) addHook(token string, h hook.Handler) error {
	if p.serves(token) {
		return fmt.Errorf("%s registered twice", token)
	}
	if h.Call != nil && !strings.Contains(token, "/") {
		return fmt.Errorf("method token %q must have the form pkg:module:Type/method", token)
	}
	p.hooks[token] = h
	if h.Args != nil {
		p.shapes[token] = shape{args: h.Args, result: h.Result, fn: h.Fn}
	}
	return nil
}

// serves reports whether token is already served as a component or method.
func (p *Provider) serves(token string) bool {
	_, comp := p.components[token]
	_, meth := p.methods[token]
	_, hooked := p.hooks[token]
	return comp || meth || hooked
}

// componentTokens are the component types served, for error messages.
func (p *Provider) componentTokens() map[string]bool {
	out := map[string]bool{}
	for t := range p.components {
		out[t] = true
	}
	for t, h := range p.hooks {
		if h.Construct != nil {
			out[t] = true
		}
	}
	return out
}

// methodTokens are the methods served, sorted.
func (p *Provider) methodTokens() []string {
	out := slices.Collect(maps.Keys(p.methods))
	for t, h := range p.hooks {
		if h.Call != nil {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

func (p *Provider) engineAddress() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.engineAddr
}

// constructHooked serves a Construct with a host/gosdk handler.
func (s *server) constructHooked(ctx context.Context, h hook.Construct, req *pulumirpc.ConstructRequest, creq constructRequest) (*pulumirpc.ConstructResponse, error) {
	fail := func(err error) (*pulumirpc.ConstructResponse, error) {
		s.logPanic(ctx, err, creq.Inputs, creq.Info.Config)
		return nil, constructErrorToStatus(err, creq.Inputs, creq.Info.Config)
	}
	if err := s.p().checkInputs(creq.Type, creq.Inputs); err != nil {
		return fail(err)
	}
	resp, err := runSafely(ctx, creq.Type, creq.Name, func(ctx context.Context) (*pulumirpc.ConstructResponse, error) {
		return h(ctx, s.p().engineAddress(), creq.Inputs, req)
	})
	if err != nil {
		return fail(err)
	}
	state, err := fromWire(resp.GetState())
	if err == nil {
		err = s.p().checkOutputs(ctx, creq.Type, creq.Name, urn.URN(resp.GetUrn()), state)
	}
	if err != nil {
		return fail(err)
	}
	return resp, nil
}

// callHooked serves a Call with a host/gosdk handler.
func (s *server) callHooked(ctx context.Context, h hook.Call, req *pulumirpc.CallRequest, creq callRequest) (*pulumirpc.CallResponse, error) {
	fail := func(err error) (*pulumirpc.CallResponse, error) {
		s.logPanic(ctx, err, creq.Args, creq.Info.Config)
		return nil, errorToStatus(err, creq.Args, creq.Info.Config)
	}
	if _, _, failures := s.p().callArgs(creq); len(failures) > 0 {
		return &pulumirpc.CallResponse{Failures: checkFailures(failures, creq.Args, creq.Info.Config)}, nil
	}
	resp, err := runSafely(ctx, creq.Token, "", func(ctx context.Context) (*pulumirpc.CallResponse, error) {
		return h(ctx, s.p().engineAddress(), creq.Args, req)
	})
	if ie, ok := asInputError(err); ok { // bad arguments, as the raw path reports them
		return &pulumirpc.CallResponse{Failures: checkFailures(ie.Failures, creq.Args, creq.Info.Config)}, nil
	}
	if err != nil {
		return fail(err)
	}
	if len(resp.GetFailures()) > 0 {
		return resp, nil
	}
	ret, err := fromWire(resp.GetReturn())
	if err == nil {
		err = s.p().checkOutputs(ctx, creq.Token, "", "", ret)
	}
	if err != nil {
		return fail(err)
	}
	return resp, nil
}
