package rpc

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/internal/core"
)

// SDKConstruct builds a component with the Go SDK (host/gosdk) from the
// protocol's request, as it came, answering with its response. engineAddr
// is the engine's address, for the SDK's logging connection; inputs are
// the request's inputs as the host read them, with their markers, checked.
type SDKConstruct func(ctx context.Context, engineAddr string, inputs property.Map, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error)

// SDKCall serves a method with the Go SDK from the protocol's request;
// args as inputs above.
type SDKCall func(ctx context.Context, engineAddr string, args property.Map, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error)

// goSDK holds a provider's handlers of the tokens the Go SDK serves, by
// token; the core knows only that they are served elsewhere.
type goSDK struct {
	constructs map[string]SDKConstruct
	calls      map[string]SDKCall
}

// Handles reports whether token is a component or method g serves.
func (g *goSDK) Handles(token string) bool {
	_, c := g.constructs[token]
	_, m := g.calls[token]
	return c || m
}

// goSDKOf is p's goSDK, kept in p (core.Provider.SetHandlers).
func goSDKOf(p *core.Provider) (*goSDK, error) {
	switch h := p.Handlers().(type) {
	case nil:
		g := &goSDK{constructs: map[string]SDKConstruct{}, calls: map[string]SDKCall{}}
		p.SetHandlers(g)
		return g, nil
	case *goSDK:
		return h, nil
	default:
		return nil, fmt.Errorf("provider %s: its tokens served elsewhere are served by %T", p.Name(), h)
	}
}

// AddSDKConstruct serves the component type token of p with f; e gives
// its Go types (e.Method is false).
func AddSDKConstruct(p *core.Provider, token string, e core.Elsewhere, f SDKConstruct) error {
	g, err := goSDKOf(p)
	if err != nil {
		return err
	}
	e.Method = false
	if err := p.AddElsewhere(token, e); err != nil {
		return err
	}
	g.constructs[token] = f
	return nil
}

// AddSDKCall serves the method token of p with f; e gives its Go types
// (e.Method is true).
func AddSDKCall(p *core.Provider, token string, e core.Elsewhere, f SDKCall) error {
	g, err := goSDKOf(p)
	if err != nil {
		return err
	}
	e.Method = true
	if err := p.AddElsewhere(token, e); err != nil {
		return err
	}
	g.calls[token] = f
	return nil
}

// sdkConstruct is the Go SDK's builder of component token in p, if any.
func sdkConstruct(p *core.Provider, token string) SDKConstruct {
	if g, ok := p.Handlers().(*goSDK); ok {
		return g.constructs[token]
	}
	return nil
}

// sdkCall is the Go SDK's server of method token in p, if any.
func sdkCall(p *core.Provider, token string) SDKCall {
	if g, ok := p.Handlers().(*goSDK); ok {
		return g.calls[token]
	}
	return nil
}
