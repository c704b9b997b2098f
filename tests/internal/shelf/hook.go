package shelf

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
)

// Tokens of the Hook component and its method.
const (
	HookType   = "shelf:index:Hook"
	HookSwitch = "shelf:index:Hook/switch"
)

// GateRef is the $ref of the portal package's Gate (tests/portal):
// another package's resource whose token, portal:index/gate:Gate, has a
// module, written %2F as Pulumi's tools write it.
const GateRef = "/portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate"

// HookArgs are a Hook's inputs.
type HookArgs struct {
	// The gate the hook holds.
	Gate property.Value `pulumi:"gate,type=/portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate"`
}

// HookOutputs are a Hook's outputs.
type HookOutputs struct {
	// The gate the hook holds, as given.
	Gate property.Value `pulumi:"gate,type=/portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate"`
	// The gate's label, read through the engine.
	Label property.Value `pulumi:"label,type=string"`
}

// BuildHook holds a portal Gate: it resolves the reference it is given
// through the engine, and hands it back as its output.
func BuildHook(ctx context.Context, c *host.Component, args HookArgs) (HookOutputs, error) {
	gate, err := c.Resolve(ctx, args.Gate)
	if err != nil {
		return HookOutputs{}, diag.Errorf("gate", "%v", err)
	}
	label := property.New(property.Computed)
	if gate.Known {
		label = gate.State.Get("label")
	}
	return HookOutputs{Gate: args.Gate, Label: label.WithDependencies(args.Gate.Dependencies())}, nil
}

// SwitchArgs are the arguments of Hook.switch.
type SwitchArgs struct {
	// The gate to hold instead.
	Gate property.Value `pulumi:"gate,type=/portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate"`
}

// SwitchResult is the result of Hook.switch.
type SwitchResult struct {
	// The gate the hook held.
	Previous property.Value `pulumi:"previous,type=/portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate"`
	// The gate it was given.
	Gate property.Value `pulumi:"gate,type=/portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate"`
}

// Switch answers the gate the hook held and the one it is given: both
// references to portal Gates.
func Switch(_ context.Context, self *host.Component, args SwitchArgs) (SwitchResult, error) {
	return SwitchResult{Previous: self.State().Get("gate"), Gate: args.Gate}, nil
}
