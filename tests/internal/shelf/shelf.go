package shelf

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
)

// Name and Version of the plugin; Version is what Shelf registers the
// parameterized package on.
const (
	Name    = "shelf"
	Version = "0.1.0"
)

// Tokens of the plugin's own package.
const (
	ShelfType = "shelf:index:Shelf"
	TagType   = "shelf:index:Tag"
)

// KindVersion is the version of every kind's package.
const KindVersion = "1.0.0"

// Options describe the plugin to the host.
func Options() []host.Option {
	return []host.Option{
		host.WithVersion(Version),
		host.WithComponent(ShelfType, BuildShelf),
		host.WithRawResource[TagArgs, TagArgs](TagType, stored{}),
		host.WithParameterize(Parameterize),
		host.WithComponent(HookType, BuildHook),
		host.WithMethod(HookSwitch, Switch),
	}
}

// Parameter is the parameter of a kind's package, as JSON.
type Parameter struct {
	Kind    string `json:"kind"`
	Section string `json:"section"`
}

// Parameterize serves the package of a kind. From the command line
// (`pulumi package add shelf <kind> <section>`) it takes the kind and the
// section; from a program, the parameter it registered.
func Parameterize(_ context.Context, req host.ParameterizeRequest) (host.Parameterized, error) {
	var param Parameter
	version := req.Version
	if req.Args != nil {
		if len(req.Args) != 2 {
			return host.Parameterized{}, diag.Errorf("", "want two arguments, the kind and the section; got %q", req.Args)
		}
		param, version = Parameter{Kind: req.Args[0], Section: req.Args[1]}, KindVersion
	} else if err := json.Unmarshal(req.Value, &param); err != nil {
		return host.Parameterized{}, diag.Errorf("", "parameter of %s: %v", req.Name, err)
	}
	value, err := json.Marshal(param)
	if err != nil {
		return host.Parameterized{}, err
	}
	p, err := host.New(param.Kind, host.WithVersion(version),
		host.WithRawResource[ItemArgs, ItemState](param.Kind+":index:Item", item{param: param, version: version}))
	return host.Parameterized{Provider: p, Value: value}, err
}

// ItemArgs are an Item's inputs.
type ItemArgs struct {
	Title string `pulumi:"title"`
}

// ItemState is an Item's state: what it was given and the package that
// served it, with the section its parameter named.
type ItemState struct {
	Title   string `pulumi:"title"`
	Package string `pulumi:"package"`
	Section string `pulumi:"section"`
}

// item is <kind>:index:Item, kept only in the state.
type item struct {
	param   Parameter
	version string
}

func (i item) outputs(inputs property.Map) property.Map {
	return inputs.Set("package", property.New(i.param.Kind+" "+i.version)).Set("section", property.New(i.param.Section))
}

func (i item) Create(_ context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: resource.ID("item-" + req.Name), Outputs: i.outputs(req.Inputs)}, nil
}

func (item) Read(_ context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (i item) Update(_ context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{Outputs: i.outputs(req.Inputs)}, nil
}

func (item) Delete(context.Context, custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// TagArgs are a Tag's inputs, and its state.
type TagArgs struct {
	Label string `pulumi:"label"`
	Stamp string `pulumi:"stamp"`
}

// stored is a custom resource kept only in the state: its outputs are its
// inputs.
type stored struct{}

func (stored) Create(_ context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: resource.ID("tag-" + req.Name), Outputs: req.Inputs}, nil
}

func (stored) Read(_ context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (stored) Update(_ context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{Outputs: req.Inputs}, nil
}

func (stored) Delete(context.Context, custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// ShelfArgs are a Shelf's inputs.
type ShelfArgs struct {
	Kind    string         `pulumi:"kind"`
	Section string         `pulumi:"section"`
	Title   property.Value `pulumi:"title,type=string"`
	Label   property.Value `pulumi:"label,type=string"`
	Edition int            `pulumi:"edition"`
}

// ShelfOutputs are read from the Shelf's children.
type ShelfOutputs struct {
	ItemPackage property.Value `pulumi:"itemPackage,type=string"`
	ItemSection property.Value `pulumi:"itemSection,type=string"`
	TagLabel    property.Value `pulumi:"tagLabel,type=string"`
}

// BuildShelf registers the package of args.Kind and an Item of it, by its
// reference, and a Tag whose stamp, derived from the edition, the CLI
// shows as changed without showing its values.
func BuildShelf(ctx context.Context, c *host.Component, args ShelfArgs) (ShelfOutputs, error) {
	param, err := json.Marshal(Parameter{Kind: args.Kind, Section: args.Section})
	if err != nil {
		return ShelfOutputs{}, err
	}
	pkg, err := c.RegisterPackage(ctx, monitorclient.RegisterPackageRequest{Name: Name, Version: Version,
		Parameterization: &monitorclient.Parameterization{Name: args.Kind, Version: KindVersion, Value: param}})
	if err != nil {
		return ShelfOutputs{}, err
	}
	it, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: args.Kind + ":index:Item", Name: c.Name() + "-item", Custom: true, PackageRef: pkg.Ref,
		Inputs: property.NewMap(map[string]property.Value{"title": args.Title}),
	})
	if err != nil {
		return ShelfOutputs{}, err
	}
	tag, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: TagType, Name: c.Name() + "-tag", Custom: true, HideDiffs: []string{"stamp"},
		Inputs: property.NewMap(map[string]property.Value{
			"label": args.Label,
			"stamp": property.New(fmt.Sprintf("edition-%d", args.Edition)),
		}),
	})
	if err != nil {
		return ShelfOutputs{}, err
	}
	return ShelfOutputs{ItemPackage: it.Output("package"), ItemSection: it.Output("section"), TagLabel: tag.Output("label")}, nil
}
