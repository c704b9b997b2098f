// Command sdkprogram is a consumer program written with the real Go SDK
// (pulumi.Run), so the engine tests also cover the SDK's side of the wire:
// feature probing, a custom resource, a remote component, a method call and
// stack exports.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Thing is test:index:Thing.
type Thing struct {
	pulumi.CustomResourceState
	Value    pulumi.StringOutput `pulumi:"value"`
	Computed pulumi.StringOutput `pulumi:"computed"`
}

// Comp is the remote component test:index:Comp.
type Comp struct {
	pulumi.ResourceState
	Out pulumi.StringOutput `pulumi:"out"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		thing := &Thing{}
		if err := ctx.RegisterResource("test:index:Thing", "a",
			pulumi.Map{"value": pulumi.String(cfg.Require("value"))}, thing); err != nil {
			return err
		}
		comp := &Comp{}
		if err := ctx.RegisterRemoteComponentResource("test:index:Comp", "c",
			pulumi.Map{"prefix": thing.Value}, comp); err != nil {
			return err
		}
		whoami, err := ctx.Call("test:index:Comp/whoami", pulumi.Map{}, pulumi.AnyOutput{}, comp)
		if err != nil {
			return err
		}
		ctx.Export("thingId", thing.ID())
		ctx.Export("computed", thing.Computed)
		ctx.Export("compOut", comp.Out)
		ctx.Export("whoami", whoami)
		ctx.Export("secret", pulumi.ToSecret(pulumi.String("sdk-secret")))
		return nil
	})
}
