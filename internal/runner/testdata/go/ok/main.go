// Command ok registers a local component, reads config and exports outputs.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

type widget struct {
	pulumi.ResourceState
	Label pulumi.StringOutput `pulumi:"label"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		greeting := cfg.Require("greeting")
		token := cfg.RequireSecret("token")

		w := &widget{}
		if err := ctx.RegisterComponentResource("runnertest:index:Widget", "w", w); err != nil {
			return err
		}
		w.Label = pulumi.String(greeting).ToStringOutput()
		if err := ctx.RegisterResourceOutputs(w, pulumi.Map{"label": w.Label}); err != nil {
			return err
		}

		ctx.Export("greeting", w.Label)
		ctx.Export("token", token)
		ctx.Export("dryRun", pulumi.Bool(ctx.DryRun()))
		return nil
	})
}
