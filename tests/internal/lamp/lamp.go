// Package lamp is a test provider package for custom resources written
// with Go types and for the request context, built without a schema file
// (Go-first): Bulb has Create alone; Lamp has Check, Diff, Create, Read,
// Update and Delete; whereAmI is a function. Each reads the configuration
// of the provider instance serving it (its room) with host.Config and
// logs a line with host.Logger, so that tests/testdata/real_typed_crud
// can check, with two explicit providers of different rooms in one
// program, that each call sees its own instance's and that the CLI shows
// the line on the right resource. None of them uses host.Decode or
// host.Encode.
package lamp

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
)

// Name is the package name.
const Name = "lamp"

// Tokens of the package.
const (
	BulbType = "lamp:index:Bulb"
	LampType = "lamp:index:Lamp"
	WhereAmI = "lamp:index:whereAmI"
)

// Options describe the lamp package to the host.
func Options(version string) []host.Option {
	return []host.Option{
		host.WithVersion(version),
		host.WithConfig(func(context.Context, Config) error { return nil }),
		host.WithTypedResource(BulbType, Bulb{}),
		host.WithTypedResource(LampType, Lamp{}),
		host.WithFunction(WhereAmI, Where),
	}
}

// Config is the provider's configuration.
type Config struct {
	// The room the provider's lamps light.
	Room string `pulumi:"room,optional"`
}

// LightArgs are the inputs of a Bulb or a Lamp.
type LightArgs struct {
	// Power in watts.
	Watts int `pulumi:"watts"`
	// Colour of the light; a Lamp's Check makes it white if unset.
	Color string `pulumi:"color,optional"`
}

// LightState is the state of a Bulb or a Lamp.
type LightState struct {
	// Power in watts.
	Watts int `pulumi:"watts"`
	// Colour of the light.
	Color string `pulumi:"color,optional"`
	// The room of the provider that made it.
	Room string `pulumi:"room"`
	// The light's colour and power.
	Glow string `pulumi:"glow"`
}

// light is the state of a light of in, in the room of the provider
// serving ctx's request.
func light(ctx context.Context, in LightArgs) LightState {
	room := host.Config[Config](ctx).Room
	return LightState{Watts: in.Watts, Color: in.Color, Room: room, Glow: fmt.Sprintf("%s %dW", in.Color, in.Watts)}
}

// Bulb is a light with Create alone: a change of its inputs replaces it, a
// refresh keeps its state, deleting it forgets it.
type Bulb struct{}

// Create lights the bulb.
func (Bulb) Create(ctx context.Context, req custom.TypedCreateRequest[LightArgs]) (custom.TypedCreateResponse[LightState], error) {
	out := light(ctx, req.Inputs)
	host.Logger(ctx).Info("bulb lit in " + out.Room)
	return custom.TypedCreateResponse[LightState]{ID: resource.ID(req.Name), Outputs: out}, nil
}

// Lamp is a light with all six methods: a change of its colour replaces
// it, of its power updates it.
type Lamp struct{}

// Check makes the colour white if unset and refuses a lamp without power.
func (Lamp) Check(ctx context.Context, req custom.TypedCheckRequest[LightArgs]) (custom.TypedCheckResponse[LightArgs], error) {
	in := req.Inputs
	if in.Watts <= 0 {
		return custom.TypedCheckResponse[LightArgs]{Failures: []diag.CheckFailure{{Property: "watts", Reason: "must be positive"}}}, nil
	}
	if in.Color == "" {
		in.Color = "white"
	}
	return custom.TypedCheckResponse[LightArgs]{Inputs: in}, nil
}

// Diff replaces a lamp whose colour changes and updates one whose power
// does.
func (Lamp) Diff(ctx context.Context, req custom.TypedDiffRequest[LightArgs, LightState]) (custom.DiffResponse, error) {
	switch {
	case req.OldInputs.Color != req.Inputs.Color:
		return custom.DiffResponse{HasChanges: true, Changes: map[string]custom.DiffKind{"color": custom.DiffUpdateReplace}, Replaces: []string{"color"}}, nil
	case req.OldInputs.Watts != req.Inputs.Watts:
		return custom.DiffResponse{HasChanges: true, Changes: map[string]custom.DiffKind{"watts": custom.DiffUpdate}}, nil
	}
	return custom.DiffResponse{}, nil
}

// Create lights the lamp.
func (Lamp) Create(ctx context.Context, req custom.TypedCreateRequest[LightArgs]) (custom.TypedCreateResponse[LightState], error) {
	return custom.TypedCreateResponse[LightState]{ID: resource.ID(req.Name), Outputs: light(ctx, req.Inputs)}, nil
}

// Read finds the lamp as recorded: nothing changes it out of band.
func (Lamp) Read(ctx context.Context, req custom.TypedReadRequest[LightArgs, LightState]) (custom.TypedReadResponse[LightArgs, LightState], error) {
	return custom.TypedReadResponse[LightArgs, LightState]{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

// Update changes the lamp's power.
func (Lamp) Update(ctx context.Context, req custom.TypedUpdateRequest[LightArgs, LightState]) (custom.TypedUpdateResponse[LightState], error) {
	out := light(ctx, req.Inputs)
	host.Logger(ctx).Info(fmt.Sprintf("lamp changed from %dW to %dW in %s", req.OldOutputs.Watts, out.Watts, out.Room))
	return custom.TypedUpdateResponse[LightState]{Outputs: out}, nil
}

// Delete switches the lamp off.
func (Lamp) Delete(ctx context.Context, req custom.TypedDeleteRequest[LightArgs, LightState]) (custom.DeleteResponse, error) {
	host.Logger(ctx).Info("lamp off in " + req.Outputs.Room)
	return custom.DeleteResponse{}, nil
}

// WhereArgs are whereAmI's arguments.
type WhereArgs struct {
	// Said before the room.
	Greeting string `pulumi:"greeting"`
}

// WhereResult is whereAmI's result.
type WhereResult struct {
	// The greeting from the provider's room.
	Text string `pulumi:"text"`
}

// Where answers from the room of the provider serving the call.
func Where(ctx context.Context, args WhereArgs) (WhereResult, error) {
	room := host.Config[Config](ctx).Room
	host.Logger(ctx).Info("asked where, in " + room)
	return WhereResult{Text: args.Greeting + " from " + room}, nil
}
