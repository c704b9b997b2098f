// Package tfkit is the test package of the Terraform backend
// (host/terraform): one plugin serves terraform-provider-time's
// time_static and time_offset and its rfc3339_parse function (protocol 5),
// the kv test provider's entries, data source and function (protocol 6,
// internal/tfprov6), and a Go component, Deadline, whose children are time
// resources. The provider binaries are found on PATH.
package tfkit

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/terraform"
	"github.com/polyhost/polyhost/monitorclient"
)

// Name is the package's name.
const Name = "tfkit"

// DeadlineArgs are a Deadline's inputs.
type DeadlineArgs struct {
	// Start is an RFC 3339 time.
	Start property.Value `pulumi:"start,type=string"`
	// Days after the start the deadline falls.
	Days property.Value `pulumi:"days,type=integer"`
}

// DeadlineOutputs are a Deadline's outputs.
type DeadlineOutputs struct {
	// Due is the deadline, RFC 3339.
	Due property.Value `pulumi:"due,type=string"`
}

// BuildDeadline registers the start as a time_static and the deadline as
// a time_offset from it.
func BuildDeadline(ctx context.Context, c *host.Component, args DeadlineArgs) (DeadlineOutputs, error) {
	start, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: "tfkit:index:Static", Name: c.Name() + "-start", Custom: true,
		Inputs: property.NewMap(map[string]property.Value{"rfc3339": args.Start}),
	})
	if err != nil {
		return DeadlineOutputs{}, err
	}
	due, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: "tfkit:index:Offset", Name: c.Name() + "-due", Custom: true,
		Inputs: property.NewMap(map[string]property.Value{"baseRfc3339": start.Output("rfc3339"), "offsetDays": args.Days}),
	})
	if err != nil {
		return DeadlineOutputs{}, err
	}
	return DeadlineOutputs{Due: due.Output("rfc3339")}, nil
}

// Options are the plugin's.
func Options(version string) []host.Option {
	return []host.Option{
		host.WithVersion(version),
		host.WithComponent("tfkit:index:Deadline", BuildDeadline),
		terraform.WithProvider("terraform-provider-time", terraform.Only("time_static", "time_offset", "rfc3339_parse")),
		terraform.WithProvider("terraform-provider-kv"),
	}
}
