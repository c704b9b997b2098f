package binder

import (
	"context"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
)

// The garden package says, in Go, each thing a schema built from Go types
// can: enums of strings and integers, recursive and nested object types,
// arrays and maps of them, secrets, replaceOnChanges, references to a
// component and to a custom resource, builtins, methods with a struct and
// a single result, a function and the configuration.

type Season string

func (Season) Values() []host.EnumValue[Season] {
	return []host.EnumValue[Season]{{Name: "Spring", Value: "spring"}, {Name: "Autumn", Value: "autumn", Description: "Leaves fall."}}
}

type Depth int

func (Depth) Values() []host.EnumValue[Depth] {
	return []host.EnumValue[Depth]{{Name: "Shallow", Value: 10}, {Name: "Deep", Value: 40}}
}

// Soil and Tool declare their tokens, in modules of their own.
type Soil string

func (Soil) Values() []host.EnumValue[Soil] {
	return []host.EnumValue[Soil]{{Name: "Clay", Value: "clay"}, {Name: "Loam", Value: "loam"}}
}

func (Soil) PulumiType() string { return "garden:ground:Soil" }

type Tool struct {
	Name string `pulumi:"name"`
	Soil Soil   `pulumi:"soil,optional"`
}

func (Tool) PulumiType() string { return "garden:tools/hand:Tool" }

type Plant struct {
	Name     string            `pulumi:"name"`
	Depth    Depth             `pulumi:"depth,optional"`
	Children []Plant           `pulumi:"children,optional"`
	Partner  *Plant            `pulumi:"partner"`
	Notes    map[string]string `pulumi:"notes,omitempty"`
}

// Fence is embedded: its fields are GardenArgs' own.
type Fence struct {
	Height int `pulumi:"height,optional"`
}

type GardenArgs struct {
	Fence
	Plot    string               `pulumi:"plot,replaceOnChanges"`
	Season  Season               `pulumi:"season,optional"`
	Beds    map[string][]Plant   `pulumi:"beds,optional"`
	Key     string               `pulumi:"key,secret"`
	Shed    property.Value       `pulumi:"shed,optional,type=garden:index:Shed"`
	Photo   property.Value       `pulumi:"photo,optional,type=asset"`
	Archive property.Value       `pulumi:"archive,optional,type=archive"`
	Extra   any                  `pulumi:"extra,optional"`
	Raw     property.Map         `pulumi:"raw,optional"`
	Weights map[string][]float64 `pulumi:"weights,optional"`
	Tools   []Tool               `pulumi:"tools,optional"`
	Store   host.Ref[shed]       `pulumi:"store,optional"`
}

type GardenOutputs struct {
	Self   property.Value `pulumi:"self,type=garden:index:Garden"`
	Plants []Plant        `pulumi:"plants"`
	Count  int            `pulumi:"count"`
}

type ShedArgs struct {
	Size int `pulumi:"size"`
}

type ShedState struct {
	Size int    `pulumi:"size"`
	Code string `pulumi:"code,secret"`
}

type shed struct{ custom.Resource }

type WaterArgs struct {
	Litres float64 `pulumi:"litres"`
}

type HarvestResult struct {
	Yield map[string]int `pulumi:"yield"`
}

type GardenConfig struct {
	Region string `pulumi:"region,optional"`
	Token  string `pulumi:"token,secret"`
}

func gardenOptions() []host.Option {
	return []host.Option{
		host.WithConfig(func(ctx context.Context, c GardenConfig) error { return nil }),
		host.WithComponent("garden:index:Garden", func(ctx context.Context, c *host.Component, args GardenArgs) (GardenOutputs, error) {
			return GardenOutputs{}, nil
		}),
		host.WithRawResource[ShedArgs, ShedState]("garden:index:Shed", shed{}),
		host.WithMethod("garden:index:Garden/water", func(ctx context.Context, self *host.Component, args WaterArgs) (Season, error) {
			return "", nil
		}),
		host.WithMethod("garden:index:Garden/harvest", func(ctx context.Context, self *host.Component, args struct{}) (HarvestResult, error) {
			return HarvestResult{}, nil
		}),
		host.WithFunction("garden:index:lookup", func(ctx context.Context, args ShedArgs) (ShedState, error) {
			return ShedState{}, nil
		}),
	}
}

// TestGoFirstSchemaBinds binds the schema built from the garden package's
// Go types, as a Go-first provider serves it (no doc comments, no overlay),
// with Pulumi's binder: no error diagnostics, the binder reads every
// property as the host's reader does, and it reads the Go declarations as
// meant. (sitekit's generated schema.yaml is bound by TestServedSchemasBind.)
func TestGoFirstSchemaBinds(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("garden", nil, append(gardenOptions(), host.WithVersion("1.0.0"))...)
	if err != nil {
		t.Fatal(err)
	}
	bound := bindServed(t, src)
	facts := binderFacts(bound)
	for k, want := range map[string]string{
		"garden:index:Garden inputs.season":     "enum garden:index:Season?",
		"garden:index:Garden inputs.beds":       "map of array of type garden:index:Plant?",
		"garden:index:Garden inputs.key":        "string secret",
		"garden:index:Garden inputs.plot":       "string replaceOnChanges",
		"garden:index:Garden inputs.shed":       "resource garden:index:Shed?",
		"garden:index:Garden inputs.photo":      "asset?",
		"garden:index:Garden.self":              "resource garden:index:Garden",
		"garden:index:Plant.partner":            "type garden:index:Plant?",
		"garden:index:Depth":                    "enum of integer 10,40",
		"garden:index:Garden/water outputs.res": "enum garden:index:Season",
		"config.token":                          "string secret",
		"garden:index:Garden inputs.tools":      "array of type garden:tools/hand:Tool?",
		"garden:index:Garden inputs.store":      "resource garden:index:Shed?",
		"garden:tools/hand:Tool.soil":           "enum garden:ground:Soil?",
		"garden:ground:Soil":                    "enum of string clay,loam",
		"garden:index:Garden inputs.height":     "integer?",
	} {
		if facts[k] != want {
			t.Errorf("%s: the binder reads %q, want %q", k, facts[k], want)
		}
	}
}
