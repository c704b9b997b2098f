package binder

import (
	"errors"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/gosdk"
)

// The greenhouse package is written with the Go SDK (host/gosdk): its
// schema comes from the SDK's Input and Output types.

type Pane struct {
	Width  pulumi.Float64Input   `pulumi:"width"`
	Labels pulumi.StringMapInput `pulumi:"labels,optional"`
}

// Site stands for sitekit's Site, as its generated SDK declares it.
type Site struct {
	pulumi.ResourceState
}

type GreenhouseArgs struct {
	Name   pulumi.StringInput      `pulumi:"name"`
	Panes  []Pane                  `pulumi:"panes"`
	Roof   *Pane                   `pulumi:"roof"`
	Plants pulumi.StringArrayInput `pulumi:"plants,optional"`
	Heat   pulumi.IntPtrInput      `pulumi:"heat"`
	Key    pulumi.StringInput      `pulumi:"key,secret"`
	Site   *Site                   `pulumi:"site"`
	Photo  pulumi.AssetInput       `pulumi:"photo,optional"`
}

type Greenhouse struct {
	pulumi.ResourceState
	Area  pulumi.Float64Output     `pulumi:"area"`
	Names pulumi.StringArrayOutput `pulumi:"names"`
	Next  *Greenhouse              `pulumi:"next,optional"`
	Note  pulumi.StringPtrOutput   `pulumi:"note"`
	Site  pulumi.AnyOutput         `pulumi:"site"`
}

func newGreenhouse(*pulumi.Context, string, *GreenhouseArgs, ...pulumi.ResourceOption) (*Greenhouse, error) {
	return nil, errors.New("not built here")
}

func vent(*pulumi.Context, *Greenhouse, struct {
	Open pulumi.BoolInput `pulumi:"open"`
}) (pulumi.IntOutput, error) {
	return pulumi.IntOutput{}, nil
}

// TestGoSDKSchemaBinds binds the schema built from the Go SDK's types with
// Pulumi's binder, sitekit served by the loader for the cross-package
// reference, and checks the binder reads the Go declarations as meant.
func TestGoSDKSchemaBinds(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("greenhouse", nil,
		host.WithVersion("1.0.0"),
		gosdk.Component("greenhouse:index:Greenhouse", newGreenhouse),
		gosdk.Method("greenhouse:index:Greenhouse/vent", vent),
		host.WithResourceRef[Site]("/sitekit/v0.1.0/schema.json#/resources/sitekit:index:Site"))
	if err != nil {
		t.Fatal(err)
	}
	bound := bindServed(t, src)
	facts := binderFacts(bound)
	for k, want := range map[string]string{
		"greenhouse:index:Greenhouse inputs.name":      "string",
		"greenhouse:index:Greenhouse inputs.panes":     "array of type greenhouse:index:Pane",
		"greenhouse:index:Greenhouse inputs.roof":      "type greenhouse:index:Pane?",
		"greenhouse:index:Greenhouse inputs.plants":    "array of string?",
		"greenhouse:index:Greenhouse inputs.heat":      "integer?",
		"greenhouse:index:Greenhouse inputs.key":       "string secret",
		"greenhouse:index:Greenhouse inputs.site":      "resource sitekit:index:Site",
		"greenhouse:index:Greenhouse inputs.photo":     "asset?",
		"greenhouse:index:Pane.labels":                 "map of string?",
		"greenhouse:index:Greenhouse.area":             "number",
		"greenhouse:index:Greenhouse.next":             "resource greenhouse:index:Greenhouse?",
		"greenhouse:index:Greenhouse.note":             "string?",
		"greenhouse:index:Greenhouse.site":             "any",
		"greenhouse:index:Greenhouse/vent outputs.res": "integer",
	} {
		if facts[k] != want {
			t.Errorf("%s: the binder reads %q, want %q", k, facts[k], want)
		}
	}
}
