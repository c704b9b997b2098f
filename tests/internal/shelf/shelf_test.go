package shelf_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
	"github.com/polyhost/polyhost/tests/internal/shelf"
)

func newShelf(t *testing.T) *host.Provider {
	t.Helper()
	p, err := host.New(shelf.Name, shelf.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A Shelf registers its kind's package, parameterized, and an Item of it
// by the reference the engine gave; its Tag hides the stamp's diffs.
func TestShelfRegistersParameterizedItemAndHiddenStamp(t *testing.T) {
	t.Parallel()
	h := hosttest.New(t, newShelf(t), hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		if r.Type == "books:index:Item" {
			return "item", r.Inputs.Set("package", property.New("books 1.0.0")).Set("section", property.New("fiction")), nil
		}
		return resource.ID("id-" + r.Name), r.Inputs, nil
	}))
	resp, err := h.Construct(context.Background(), hosttest.ConstructRequest{Type: shelf.ShelfType, Name: "s", Inputs: property.NewMap(map[string]property.Value{
		"kind": property.New("books"), "section": property.New("fiction"), "title": property.New("Dune"),
		"label": property.New("front"), "edition": property.New(3.0),
	})})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := h.Monitor.Packages()
	if len(pkgs) != 1 {
		t.Fatalf("%d packages registered, want 1", len(pkgs))
	}
	pz := pkgs[0].GetParameterization()
	if pkgs[0].GetName() != "shelf" || pkgs[0].GetVersion() != shelf.Version || pz.GetName() != "books" || pz.GetVersion() != shelf.KindVersion ||
		string(pz.GetValue()) != `{"kind":"books","section":"fiction"}` {
		t.Errorf("registered package %v", pkgs[0])
	}
	byName := map[string]hosttest.Registration{}
	for _, r := range h.Monitor.Registrations() {
		byName[r.Name] = r
	}
	if it := byName["s-item"]; it.Type != "books:index:Item" || it.PackageRef != "ref-1" {
		t.Errorf("item: type %s, packageRef %q; want books:index:Item by ref-1", it.Type, it.PackageRef)
	}
	tag := byName["s-tag"]
	if !slices.Equal(tag.HideDiffs, []string{"stamp"}) || tag.Inputs.Get("stamp").AsString() != "edition-3" {
		t.Errorf("tag: hideDiffs %v, stamp %v; want [stamp] and edition-3", tag.HideDiffs, tag.Inputs.Get("stamp"))
	}
	if got := resp.Outputs.Get("itemPackage"); got.AsString() != "books 1.0.0" {
		t.Errorf("itemPackage = %v", got)
	}
}

// The plugin parameterized with a registered parameter serves that kind's
// Item, which reports the package and the parameter's section.
func TestParameterizedKindServesItem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := hosttest.NewServer(newShelf(t))
	value, _ := json.Marshal(shelf.Parameter{Kind: "films", Section: "noir"})
	if _, err := srv.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: "films", Version: "1.0.0", Value: value}}}); err != nil {
		t.Fatal(err)
	}
	title, _ := structpb.NewStruct(map[string]any{"title": "The Third Man"})
	created, err := srv.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::p::films:index:Item::i", Type: "films:index:Item", Name: "i", Properties: title})
	if err != nil {
		t.Fatal(err)
	}
	f := created.GetProperties().GetFields()
	if f["package"].GetStringValue() != "films 1.0.0" || f["section"].GetStringValue() != "noir" {
		t.Errorf("created %v, want package films 1.0.0 in section noir", created.GetProperties())
	}
}

// A Hook takes, returns and hands back from its switch method references
// to another package's resource whose token has a module (portal's Gate,
// /portal/v0.1.0/schema.json#/resources/portal:index%2Fgate:Gate): each is
// the reference given, and a reference to another type is refused naming
// the property and the unescaped token.
func TestHookHoldsAnotherPackagesGate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := hosttest.New(t, newShelf(t))
	// The program's Gates, of the portal package.
	mc, err := monitorclient.Dial(ctx, h.Monitor.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = mc.Close() }()
	gate := func(name, label string) property.Value {
		t.Helper()
		r, err := mc.RegisterResource(ctx, monitorclient.RegisterResourceRequest{Type: "portal:index/gate:Gate", Name: name, Custom: true,
			Inputs: property.NewMap(map[string]property.Value{"label": property.New(label)})})
		if err != nil {
			t.Fatal(err)
		}
		return property.New(property.ResourceReference{URN: r.URN, ID: property.New(string(r.ID))})
	}
	front, back := gate("front", "front"), gate("back", "back")
	sameRef := func(what string, got, want property.Value) {
		t.Helper()
		if !got.IsResourceReference() || got.AsResourceReference().URN != want.AsResourceReference().URN {
			t.Errorf("%s = %v, want the reference to %s", what, got, want.AsResourceReference().URN)
		}
	}
	hook, err := h.Construct(ctx, hosttest.ConstructRequest{Type: shelf.HookType, Name: "hook",
		Inputs: property.NewMap(map[string]property.Value{"gate": front})})
	if err != nil {
		t.Fatal(err)
	}
	sameRef("output gate", hook.Outputs.Get("gate"), front)
	if got := hook.Outputs.Get("label"); got.AsString() != "front" {
		t.Errorf("label = %v, want the Gate's, front", got)
	}
	sw, err := h.Call(ctx, hosttest.CallRequest{Token: shelf.HookSwitch, Self: hook.URN,
		Args: property.NewMap(map[string]property.Value{"gate": back})})
	if err != nil {
		t.Fatalf("switch: %v", err)
	}
	sameRef("switch's previous", sw.Return.Get("previous"), front)
	sameRef("switch's gate", sw.Return.Get("gate"), back)

	other := property.New(property.ResourceReference{URN: hook.URN})
	want := "expected a reference to a portal:index/gate:Gate resource, got a shelf:index:Hook"
	_, err = h.Construct(ctx, hosttest.ConstructRequest{Type: shelf.HookType, Name: "bad",
		Inputs: property.NewMap(map[string]property.Value{"gate": other})})
	if ie, ok := err.(*diag.InputError); !ok || len(ie.Failures) != 1 || ie.Failures[0].Property != "gate" || ie.Failures[0].Reason != want {
		t.Errorf("a Hook given a Hook: %v, want an input error naming gate: %s", err, want)
	}
	_, err = h.Call(ctx, hosttest.CallRequest{Token: shelf.HookSwitch, Self: hook.URN,
		Args: property.NewMap(map[string]property.Value{"gate": other})})
	var fe *monitorclient.FailuresError
	if !errors.As(err, &fe) || len(fe.Failures) != 1 || fe.Failures[0].Property != "gate" || fe.Failures[0].Reason != want {
		t.Errorf("switch to a Hook: %v, want a failure naming gate: %s", err, want)
	}
}
