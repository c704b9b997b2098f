package portal

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
)

// GateType has a module of its own: a $ref writes its "/" as %2F.
const GateType = "portal:index/gate:Gate"

// Gate is a gate, kept only in the state; its token has a module. Its ID
// is its name and its outputs are its inputs.
type Gate struct{}

// GateArgs are a Gate's inputs, and its outputs.
type GateArgs struct {
	Label string `pulumi:"label"`
}

var _ custom.Resource = Gate{}

func (Gate) Create(_ context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: resource.ID("gate-" + req.Name), Outputs: req.Inputs}, nil
}

func (Gate) Read(_ context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (Gate) Update(_ context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{Outputs: req.Inputs}, nil
}

func (Gate) Delete(context.Context, custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// DoorArgs take a reference to a Gate.
type DoorArgs struct {
	Gate property.Value `pulumi:"gate,type=portal:index/gate:Gate"`
	// Whether to output tag, which programs that cannot read byte strings
	// (Pulumi YAML) refuse.
	Tagged bool `pulumi:"tagged,optional"`
}

// DoorOutputs hand the Gate back, with its label read through the engine.
type DoorOutputs struct {
	Gate  property.Value `pulumi:"gate,type=portal:index/gate:Gate"`
	Label property.Value `pulumi:"label,type=string"`
	// If tagged, the label after a 0xFF byte: not valid UTF-8.
	Tag property.Value `pulumi:"tag,optional,type=string"`
}

// BuildDoor is a component on the raw path that takes a Gate and hands it
// back (portal:index:Door, beside the Go SDK's Portal): it resolves the
// Gate it is given and returns it.
func BuildDoor(ctx context.Context, c *host.Component, args DoorArgs) (DoorOutputs, error) {
	gate, err := c.Resolve(ctx, args.Gate)
	if err != nil {
		return DoorOutputs{}, diag.Errorf("gate", "%v", err)
	}
	label := property.New(property.Computed)
	if gate.Known {
		label = gate.State.Get("label")
	}
	out := DoorOutputs{Gate: args.Gate, Label: label.WithDependencies(args.Gate.Dependencies())}
	if args.Tagged {
		out.Tag = host.Apply(func(v ...property.Value) property.Value {
			return property.New("\xff" + v[0].AsString())
		}, out.Label)
	}
	return out, nil
}

type doorGateResult struct {
	Gate property.Value `pulumi:"gate,type=portal:index/gate:Gate"`
}

// DoorGate is the Door's Gate, as a method result (Door.openGate).
func DoorGate(_ context.Context, self *host.Component, _ struct{}) (doorGateResult, error) {
	return doorGateResult{Gate: self.State().Get("gate")}, nil
}
