package monitorclient_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

const (
	stackURN    = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
	providerRef = "urn:pulumi:dev::proj::pulumi:providers:pkg::default::4b2a"
	otherURN    = "urn:pulumi:dev::proj::pkg:index:Other::o"
)

var provRef, _ = providers.ParseReference(providerRef)

func dial(t *testing.T, m *hosttest.Monitor) *monitorclient.Client {
	t.Helper()
	c, err := monitorclient.Dial(t.Context(), m.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func pmap(kv map[string]property.Value) property.Map { return property.NewMap(kv) }

func str(s string) property.Value { return property.New(s) }

func withDeps(v property.Value, deps ...string) property.Value {
	us := make([]urn.URN, len(deps))
	for i, d := range deps {
		us[i] = urn.URN(d)
	}
	return v.WithDependencies(us)
}

func ref(u, id string) property.Value {
	r := property.ResourceReference{URN: urn.URN(u)}
	if id != "" {
		r.ID = property.New(id)
	}
	return property.New(r)
}

func assertMap(t *testing.T, what string, got, want property.Map) {
	t.Helper()
	if !got.Equals(want) {
		t.Errorf("%s mismatch\n got: %#v\nwant: %#v", what, got, want)
	}
}

func TestRegisterCustomWithEveryOption(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	c := dial(t, m)

	resp, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{
		Type:                 "pkg:index:Thing",
		Name:                 "t",
		Parent:               stackURN,
		Custom:               true,
		Inputs:               pmap(map[string]property.Value{"a": str("x"), "b": withDeps(str("y"), otherURN)}),
		Provider:             provRef,
		PropertyDependencies: map[string][]urn.URN{"a": {stackURN}},
		Version:              "1.2.3",
		PluginDownloadURL:    "https://example.com",
		ImportID:             "imp",
		ResourceOptions: monitorclient.ResourceOptions{
			Providers:               map[string]providers.Reference{"pkg": provRef},
			Dependencies:            []urn.URN{stackURN},
			Aliases:                 []monitorclient.Alias{{URN: otherURN}, {Spec: &monitorclient.AliasSpec{Name: "old", NoParent: true}}},
			AdditionalSecretOutputs: []string{"a"},
			Protect:                 new(true),
			IgnoreChanges:           []string{"b"},
			ReplaceOnChanges:        []string{"a"},
			CustomTimeouts:          &monitorclient.CustomTimeouts{Create: "1m", Update: "2m", Delete: "3m", Read: "4m"},
			DeleteBeforeReplace:     new(false),
			RetainOnDelete:          new(true),
			DeletedWith:             otherURN,
			ReplaceWith:             []urn.URN{otherURN},
			ReplacementTrigger:      str("v2").WithSecret(true),
			Hooks:                   &monitorclient.ResourceHooks{BeforeCreate: []string{"audit"}, OnError: []string{"retry"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantURN := urn.URN("urn:pulumi:dev::proj::pkg:index:Thing::t")
	if resp.URN != wantURN || resp.ID != "id-t" || resp.Result != monitorclient.ResultSuccess {
		t.Errorf("response %+v", resp)
	}
	// Default outputs are the inputs without dependencies; "a" is an
	// additional secret output.
	assertMap(t, "outputs", resp.Outputs, pmap(map[string]property.Value{"a": str("x").WithSecret(true), "b": str("y")}))

	regs := m.Registrations()
	if len(regs) != 1 {
		t.Fatalf("%d registrations", len(regs))
	}
	r := regs[0]
	check := func(field string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("server saw wrong %s: %+v", field, r)
		}
	}
	check("URN", r.URN == wantURN)
	check("type/name/parent", r.Type == "pkg:index:Thing" && r.Name == "t" && r.Parent == stackURN)
	check("custom/remote", r.Custom && !r.Remote)
	check("provider", r.Provider.String() == providerRef)
	check("providers", len(r.Providers) == 1 && r.Providers["pkg"].String() == providerRef)
	check("dependencies", slices.Equal(r.Dependencies, []urn.URN{otherURN, stackURN}))
	check("propertyDependencies", maps.EqualFunc(r.PropertyDependencies,
		map[string][]urn.URN{"a": {stackURN}, "b": {otherURN}}, slices.Equal))
	check("aliases", reflect.DeepEqual(r.Aliases, []monitorclient.Alias{{URN: otherURN}, {Spec: &monitorclient.AliasSpec{Name: "old", NoParent: true}}}) && r.AliasSpecs)
	check("additionalSecretOutputs", slices.Equal(r.AdditionalSecretOutputs, []string{"a"}))
	check("protect", r.Protect != nil && *r.Protect)
	check("ignoreChanges", slices.Equal(r.IgnoreChanges, []string{"b"}))
	check("replaceOnChanges", slices.Equal(r.ReplaceOnChanges, []string{"a"}))
	check("customTimeouts", *r.CustomTimeouts == monitorclient.CustomTimeouts{Create: "1m", Update: "2m", Delete: "3m", Read: "4m"})
	check("replaceWith", slices.Equal(r.Raw.GetReplaceWith(), []string{otherURN}))
	trigger := r.Raw.GetReplacementTrigger().GetStructValue().GetFields()
	check("replacementTrigger", trigger["value"].GetStringValue() == "v2" && trigger[sig.Key].GetStringValue() == sig.Secret)
	check("hooks", slices.Equal(r.Raw.GetHooks().GetBeforeCreate(), []string{"audit"}) &&
		slices.Equal(r.Raw.GetHooks().GetOnError(), []string{"retry"}))
	check("deleteBeforeReplace", r.DeleteBeforeReplace != nil && !*r.DeleteBeforeReplace)
	check("retainOnDelete", r.RetainOnDelete != nil && *r.RetainOnDelete)
	check("deletedWith", r.DeletedWith == otherURN)
	check("version", r.Version == "1.2.3")
	check("pluginDownloadURL", r.PluginDownloadURL == "https://example.com")
	check("importID", r.ImportID == "imp")
	check("protocol flags", r.AcceptSecrets && r.AcceptResources && r.SupportsPartialValues && r.SupportsResultReporting)
	// A custom (non-remote) resource gets plain values, not output values.
	assertMap(t, "inputs", r.Inputs, pmap(map[string]property.Value{"a": str("x"), "b": str("y")}))
}

func TestRegisterComponentChildAndOutputs(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	c := dial(t, m)
	ctx := t.Context()

	comp, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: "pkg:index:Comp", Name: "c", Parent: stackURN,
		Inputs: pmap(map[string]property.Value{"in": str("v")}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if comp.URN != "urn:pulumi:dev::proj::pkg:index:Comp::c" || comp.ID != "" || comp.Outputs.Len() != 0 {
		t.Errorf("component response %+v", comp)
	}
	child, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: "pkg:index:Child", Name: "c-child", Parent: comp.URN, Custom: true,
		Inputs: pmap(map[string]property.Value{"x": str("1")}), Provider: provRef,
	})
	if err != nil {
		t.Fatal(err)
	}
	if child.URN != "urn:pulumi:dev::proj::pkg:index:Comp$pkg:index:Child::c-child" {
		t.Errorf("child URN %s", child.URN)
	}

	outs := pmap(map[string]property.Value{
		"out":   str("v!").WithSecret(true),
		"child": ref(string(child.URN), string(child.ID)),
	})
	if _, err := c.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: comp.URN, Outputs: outs}); err != nil {
		t.Fatal(err)
	}
	got, ok := m.Outputs(comp.URN)
	if !ok {
		t.Fatal("no outputs recorded")
	}
	assertMap(t, "recorded outputs", got, outs)

	// Registering outputs twice is an error, as in the engine.
	_, err = c.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: comp.URN, Outputs: outs})
	if err == nil || !strings.Contains(err.Error(), string(comp.URN)) {
		t.Errorf("second RegisterResourceOutputs: %v", err)
	}

	gr, err := c.GetResource(ctx, monitorclient.GetResourceRequest{URN: comp.URN})
	if err != nil {
		t.Fatal(err)
	}
	if gr.URN != comp.URN || gr.ID != "" || gr.Provider != (providers.Reference{}) {
		t.Errorf("getResource component %+v", gr)
	}
	assertMap(t, "component state", gr.State, outs)

	gr, err = c.GetResource(ctx, monitorclient.GetResourceRequest{URN: child.URN})
	if err != nil {
		t.Fatal(err)
	}
	if gr.URN != child.URN || gr.ID != "id-c-child" || gr.Provider != provRef {
		t.Errorf("getResource custom %+v", gr)
	}
	assertMap(t, "custom state", gr.State, pmap(map[string]property.Value{"x": str("1")}))

	_, err = c.GetResource(ctx, monitorclient.GetResourceRequest{URN: "urn:pulumi:dev::proj::pkg:index:Nope::n"})
	if err == nil || !strings.Contains(err.Error(), "unknown resource urn:pulumi:dev::proj::pkg:index:Nope::n") ||
		!strings.HasPrefix(err.Error(), "get resource urn:pulumi:dev::proj::pkg:index:Nope::n:") {
		t.Errorf("unknown resource: %v", err)
	}
}

func TestRegisterRemoteSendsOutputValues(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		if !r.Remote {
			return "", property.Map{}, nil
		}
		return "", pmap(map[string]property.Value{"o": withDeps(str("out"), otherURN)}), nil
	}))
	c := dial(t, m)
	in := pmap(map[string]property.Value{
		"a": withDeps(str("x").WithSecret(true), otherURN),
		"u": withDeps(property.New(property.Computed), otherURN),
		"p": str("plain"),
	})
	resp, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{
		Type: "pkg:index:Remote", Name: "r", Parent: stackURN, Remote: true, Inputs: in,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Registrations()[0]
	// Output values keep secretness, unknownness and dependencies on the wire.
	assertMap(t, "remote inputs", r.Inputs, in)
	if !strings.Contains(r.Raw.GetObject().String(), "d0e6a833031e9bbcd3f4e8bde6ca49a4") {
		t.Errorf("no output value on the wire: %v", r.Raw.GetObject())
	}
	if !maps.EqualFunc(r.PropertyDependencies,
		map[string][]urn.URN{"a": {otherURN}, "u": {otherURN}, "p": {}}, slices.Equal) {
		t.Errorf("property deps %v", r.PropertyDependencies)
	}
	assertMap(t, "remote outputs", resp.Outputs, pmap(map[string]property.Value{"o": str("out")}))
	if !maps.EqualFunc(resp.PropertyDependencies, map[string][]urn.URN{"o": {otherURN}}, slices.Equal) {
		t.Errorf("response property deps %v", resp.PropertyDependencies)
	}
}

func TestRoundTripSecretsUnknownsReferences(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t,
		hosttest.WithDryRun(true),
		hosttest.WithPreviewUnknowns(func(hosttest.Registration) []string { return []string{"later"} }))
	c := dial(t, m)
	in := pmap(map[string]property.Value{
		"secret":  str("s").WithSecret(true),
		"unknown": property.New(property.Computed),
		"ref":     ref(otherURN, "oid"),
		"nested": property.New([]property.Value{
			property.New(map[string]property.Value{"deep": str("d").WithSecret(true)}),
		}),
	})
	resp, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{
		Type: "pkg:index:Thing", Name: "t", Parent: stackURN, Custom: true, Inputs: in,
	})
	if err != nil {
		t.Fatal(err)
	}
	assertMap(t, "server inputs", m.Registrations()[0].Inputs, in)
	if resp.ID != "" {
		t.Errorf("preview id %q, want unknown (empty)", resp.ID)
	}
	want := in.Set("later", property.New(property.Computed))
	assertMap(t, "outputs", resp.Outputs, want)
	if rr := resp.Outputs.Get("ref").AsResourceReference(); rr.Type != "pkg:index:Other" || rr.Name != "o" {
		t.Errorf("reference lost name/type: %+v", rr)
	}
}

func TestFeatureGatedMarshalling(t *testing.T) {
	t.Parallel()
	// A monitor without secrets/resourceReferences/aliasSpecs/deletedWith.
	m := hosttest.Start(t, hosttest.WithFeatures("outputValues"))
	c := dial(t, m)
	if f := c.Features(); f.Secrets || f.ResourceReferences || !f.OutputValues || f.AliasSpecs {
		t.Fatalf("features %+v", f)
	}
	_, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{
		Type: "pkg:index:Thing", Name: "t", Parent: stackURN, Custom: true,
		Inputs:          pmap(map[string]property.Value{"s": str("x").WithSecret(true), "r": ref(otherURN, "oid")}),
		ResourceOptions: monitorclient.ResourceOptions{Aliases: []monitorclient.Alias{{Spec: &monitorclient.AliasSpec{Name: "old"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Registrations()[0]
	assertMap(t, "downgraded inputs", r.Inputs, pmap(map[string]property.Value{"s": str("x"), "r": str("oid")}))
	if !slices.Equal(r.AliasURNs, []urn.URN{"urn:pulumi:dev::proj::pkg:index:Thing::old"}) || len(r.Aliases) != 0 || r.AliasSpecs {
		t.Errorf("aliases not collapsed: %v %v", r.AliasURNs, r.Aliases)
	}

	_, err = c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{
		Type: "pkg:index:Thing", Name: "t2", Custom: true,
		ResourceOptions: monitorclient.ResourceOptions{DeletedWith: otherURN},
	})
	if err == nil || !strings.Contains(err.Error(), `pkg:index:Thing "t2"`) {
		t.Errorf("deletedWith unsupported: %v", err)
	}
	for option, opts := range map[string]monitorclient.ResourceOptions{
		"ReplaceWith":        {ReplaceWith: []urn.URN{otherURN}},
		"ReplacementTrigger": {ReplacementTrigger: str("v1")},
		"resource hooks":     {Hooks: &monitorclient.ResourceHooks{AfterDelete: []string{"h"}}},
	} {
		req := monitorclient.RegisterResourceRequest{Type: "pkg:index:Thing", Name: "t3", Custom: true, ResourceOptions: opts}
		if _, err := c.RegisterResource(t.Context(), req); err == nil || !strings.Contains(err.Error(), option) {
			t.Errorf("%s unsupported: %v", option, err)
		}
	}
	if n := len(m.Registrations()); n != 1 {
		t.Errorf("refused request reached the monitor (%d registrations)", n)
	}
}

func TestRegisterErrorsNameTheResource(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	c := dial(t, m)
	req := monitorclient.RegisterResourceRequest{Type: "pkg:index:Thing", Name: "dup", Custom: true}
	if _, err := c.RegisterResource(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	_, err := c.RegisterResource(t.Context(), req)
	var rpcErr *monitorclient.RPCError
	if !errors.As(err, &rpcErr) {
		t.Fatalf("err = %v, want *RPCError", err)
	}
	want := `register resource pkg:index:Thing "dup": Duplicate resource URN`
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want prefix %q", err.Error(), want)
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("code %v lost through wrapping", status.Code(err))
	}
}

func TestRegisterResultReporting(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		switch r.Name {
		case "fail":
			return "", property.Map{}, hosttest.ErrFail
		case "skip":
			return "", property.Map{}, hosttest.ErrSkip
		case "boom":
			return "", property.Map{}, errors.New("provider exploded")
		}
		return "id", property.Map{}, nil
	}))
	c := dial(t, m)
	for name, want := range map[string]monitorclient.Result{
		"fail": monitorclient.ResultFail, "skip": monitorclient.ResultSkip, "ok": monitorclient.ResultSuccess,
	} {
		resp, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{Type: "pkg:index:T", Name: name, Custom: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Result != want {
			t.Errorf("%s: result %v, want %v", name, resp.Result, want)
		}
	}
	_, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{Type: "pkg:index:T", Name: "boom", Custom: true})
	if err == nil || !strings.Contains(err.Error(), `pkg:index:T "boom": provider exploded`) {
		t.Errorf("hook error: %v", err)
	}
}

func TestConcurrentRegisterResource(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	c := dial(t, m)
	comp, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{Type: "pkg:index:Comp", Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	urns := make([]string, n)
	g, ctx := errgroup.WithContext(t.Context())
	for i := range n {
		g.Go(func() error {
			resp, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
				Type: "pkg:index:Child", Name: fmt.Sprintf("child-%d", i), Parent: comp.URN, Custom: true,
				Inputs: pmap(map[string]property.Value{"i": property.New(float64(i))}),
			})
			urns[i] = string(resp.URN)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(urns)
	if len(slices.Compact(urns)) != n || len(m.Registrations()) != n+1 {
		t.Errorf("got %d distinct URNs, %d registrations", len(urns), len(m.Registrations()))
	}
}

func TestInvoke(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithInvokeHook(func(inv hosttest.Invocation) (monitorclient.InvokeResponse, error) {
		switch inv.Token {
		case "pkg:index:echo":
			return monitorclient.InvokeResponse{Return: inv.Args}, nil
		case "pkg:index:bad":
			return monitorclient.InvokeResponse{}, &monitorclient.FailuresError{Failures: []diag.CheckFailure{{Property: "x", Reason: "must be positive"}}}
		case "pkg:index:pending":
			return monitorclient.InvokeResponse{Unknown: true}, nil
		}
		return monitorclient.InvokeResponse{}, errors.New("no such function")
	}))
	c := dial(t, m)
	ctx := t.Context()

	args := pmap(map[string]property.Value{"s": str("x").WithSecret(true), "n": property.New(2.0)})
	resp, err := c.Invoke(ctx, monitorclient.InvokeRequest{
		Token: "pkg:index:echo", Args: args, Provider: provRef, Version: "1.0.0",
		DependsOn: []urn.URN{otherURN}, Parent: stackURN,
	})
	if err != nil {
		t.Fatal(err)
	}
	assertMap(t, "return", resp.Return, args)
	inv := m.Invocations()[0]
	if inv.Provider.String() != providerRef || inv.Version != "1.0.0" || !slices.Equal(inv.DependsOn, []urn.URN{otherURN}) ||
		inv.Parent != stackURN || !inv.Raw.GetAcceptResources() {
		t.Errorf("server saw %+v", inv)
	}

	_, err = c.Invoke(ctx, monitorclient.InvokeRequest{Token: "pkg:index:bad"})
	var fe *monitorclient.FailuresError
	if !errors.As(err, &fe) || len(fe.Failures) != 1 || fe.Failures[0] != (diag.CheckFailure{Property: "x", Reason: "must be positive"}) {
		t.Errorf("failures: %v", err)
	}
	if err != nil && err.Error() != "invoke pkg:index:bad: provider reported failures: must be positive (x)" {
		t.Errorf("failure message %q", err.Error())
	}

	resp, err = c.Invoke(ctx, monitorclient.InvokeRequest{Token: "pkg:index:pending"})
	if err != nil || !resp.Unknown {
		t.Errorf("unknown: %+v %v", resp, err)
	}

	_, err = c.Invoke(ctx, monitorclient.InvokeRequest{Token: "pkg:index:missing"})
	if err == nil || !strings.HasPrefix(err.Error(), "invoke pkg:index:missing:") || !strings.Contains(err.Error(), "no such function") {
		t.Errorf("error: %v", err)
	}
}

func TestCall(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithCallHook(func(call hosttest.Call) (monitorclient.CallResponse, error) {
		if call.Token == "pkg:index:Comp/bad" {
			return monitorclient.CallResponse{}, &monitorclient.FailuresError{Failures: []diag.CheckFailure{{Reason: "no"}}}
		}
		return monitorclient.CallResponse{
			Return:             pmap(map[string]property.Value{"res": withDeps(str("r"), otherURN)}),
			ReturnDependencies: map[string][]urn.URN{"res": {stackURN}},
		}, nil
	}))
	c := dial(t, m)
	self := "urn:pulumi:dev::proj::pkg:index:Comp::c"
	resp, err := c.Call(t.Context(), monitorclient.CallRequest{
		Token: "pkg:index:Comp/m",
		Args: pmap(map[string]property.Value{
			"__self__": ref(self, ""),
			"x":        withDeps(str("v"), otherURN),
		}),
		ArgDependencies: map[string][]urn.URN{"x": {stackURN}},
		Provider:        provRef,
		Version:         "0.1.0",
	})
	if err != nil {
		t.Fatal(err)
	}
	assertMap(t, "return", resp.Return, pmap(map[string]property.Value{"res": str("r")}))
	if !slices.Equal(resp.ReturnDependencies["res"], []urn.URN{otherURN, stackURN}) {
		t.Errorf("return deps %v", resp.ReturnDependencies)
	}
	call := m.Calls()[0]
	assertMap(t, "args", call.Args, pmap(map[string]property.Value{
		"__self__": ref(self, ""), "x": withDeps(str("v"), otherURN),
	}))
	if !maps.EqualFunc(call.ArgDependencies, map[string][]urn.URN{"__self__": {}, "x": {otherURN, stackURN}}, slices.Equal) ||
		call.Provider.String() != providerRef || call.Version != "0.1.0" {
		t.Errorf("server saw %+v", call)
	}

	_, err = c.Call(t.Context(), monitorclient.CallRequest{Token: "pkg:index:Comp/bad"})
	var fe *monitorclient.FailuresError
	if !errors.As(err, &fe) || fe.Failures[0].Reason != "no" {
		t.Errorf("failures: %v", err)
	}
}

func TestFeatureNegotiation(t *testing.T) {
	t.Parallel()
	t.Run("deployment info", func(t *testing.T) {
		t.Parallel()
		m := hosttest.Start(t, hosttest.WithDryRun(true), hosttest.WithStack("prod"))
		c := dial(t, m)
		f := c.Features()
		if !f.Secrets || !f.ResourceReferences || !f.OutputValues || !f.AliasSpecs || !f.DeletedWith || !f.InvokeParent {
			t.Errorf("features %+v", f)
		}
		info, ok := c.DeploymentInfo()
		if !ok || info.Stack != "prod" || info.Project != "proj" || !info.DryRun {
			t.Errorf("deployment info %+v %v", info, ok)
		}
		if m.DeploymentInfoCalls() != 1 || m.SupportsFeatureCalls() != 0 {
			t.Errorf("calls: %d GetDeploymentInfo, %d SupportsFeature", m.DeploymentInfoCalls(), m.SupportsFeatureCalls())
		}
	})
	t.Run("legacy fallback", func(t *testing.T) {
		t.Parallel()
		m := hosttest.Start(t, hosttest.WithoutDeploymentInfo(),
			hosttest.WithFeatures("secrets", "resourceReferences", "deletedWith", "invokeParent"))
		c := dial(t, m)
		want := monitorclient.Features{Secrets: true, ResourceReferences: true, DeletedWith: true}
		if f := c.Features(); f != want {
			t.Errorf("features %+v, want %+v (invokeParent has no legacy id)", f, want)
		}
		if _, ok := c.DeploymentInfo(); ok {
			t.Error("DeploymentInfo ok without GetDeploymentInfo")
		}
		if m.DeploymentInfoCalls() != 1 || m.SupportsFeatureCalls() != 11 {
			t.Errorf("calls: %d GetDeploymentInfo, %d SupportsFeature", m.DeploymentInfoCalls(), m.SupportsFeatureCalls())
		}
	})
	t.Run("other errors are returned", func(t *testing.T) {
		t.Parallel()
		// Nothing listens on a closed port: GetDeploymentInfo is Unavailable.
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := lis.Addr().String()
		_ = lis.Close()
		_, err = monitorclient.Dial(t.Context(), addr)
		if err == nil || status.Code(err) != codes.Unavailable ||
			!strings.Contains(err.Error(), "checking monitor features") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestPoolDialsOncePerEndpoint(t *testing.T) {
	t.Parallel()
	m1 := hosttest.Start(t)
	m2 := hosttest.Start(t, hosttest.WithoutDeploymentInfo())
	p := monitorclient.NewPool()
	defer func() { _ = p.Close() }()

	const n = 16
	got := make([]*monitorclient.Client, 2*n)
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Go(func() {
			addr := m1.Addr()
			if i%2 == 1 {
				addr = m2.Addr()
			}
			c, err := p.Get(context.Background(), addr)
			if err != nil {
				t.Error(err)
			}
			got[i] = c
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] == nil || got[i] != got[i%2] {
			t.Fatalf("client %d differs from client %d", i, i%2)
		}
	}
	if got[0] == got[1] {
		t.Error("two endpoints share a client")
	}
	if m1.DeploymentInfoCalls() != 1 {
		t.Errorf("m1 negotiated %d times", m1.DeploymentInfoCalls())
	}
	if m2.DeploymentInfoCalls() != 1 || m2.SupportsFeatureCalls() != 11 {
		t.Errorf("m2 negotiated %d/%d times", m2.DeploymentInfoCalls(), m2.SupportsFeatureCalls())
	}
	// The pooled client works.
	if _, err := got[0].RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{Type: "a:b:C", Name: "x"}); err != nil {
		t.Error(err)
	}

	if err := p.Close(); err != nil {
		t.Error(err)
	}
	if _, err := p.Get(t.Context(), m1.Addr()); !errors.Is(err, monitorclient.ErrPoolClosed) {
		t.Errorf("Get after Close: %v", err)
	}
}

func TestPoolDoesNotCacheFailures(t *testing.T) {
	t.Parallel()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	p := monitorclient.NewPool()
	defer func() { _ = p.Close() }()
	for range 2 {
		if _, err := p.Get(t.Context(), addr); err == nil {
			t.Fatal("Get of a dead endpoint succeeded")
		}
	}
}

func TestPoolGetHonoursContext(t *testing.T) {
	t.Parallel()
	p := monitorclient.NewPool()
	defer func() { _ = p.Close() }()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	m := hosttest.Start(t)
	// Either the dial wins the race or the cancelled context does; neither
	// may hang or return a nil client without an error.
	c, err := p.Get(ctx, m.Addr())
	if (c == nil) == (err == nil) {
		t.Errorf("c=%v err=%v", c, err)
	}
}

func TestEngineLog(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	e, err := monitorclient.DialEngine(t.Context(), m.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	u := "urn:pulumi:dev::proj::pkg:index:Comp::c"
	if _, err := e.Log(t.Context(), monitorclient.LogRequest{
		Severity: monitorclient.SeverityWarning, Message: "careful", URN: urn.URN(u), Ephemeral: true,
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Log(t.Context(), monitorclient.LogRequest{Severity: 42}); err == nil {
		t.Error("bad severity accepted")
	}
	logs := m.Logs()
	want := []monitorclient.LogRequest{{Severity: monitorclient.SeverityWarning, Message: "careful", URN: urn.URN(u), Ephemeral: true}}
	if !slices.Equal(logs, want) {
		t.Errorf("logs %+v", logs)
	}
}

// Messages larger than the static flow-control windows still go through,
// several at once, in both directions.
func TestLargeMessagesBeyondFlowWindows(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	c := dial(t, m)
	big := strings.Repeat("x", 9<<20) // above the 4 MiB stream window
	var g errgroup.Group
	for i := range 4 { // 36 MiB at once, above the 16 MiB connection window
		g.Go(func() error {
			in := pmap(map[string]property.Value{"blob": str(big)})
			resp, err := c.RegisterResource(t.Context(), monitorclient.RegisterResourceRequest{
				Type: "pkg:index:Thing", Name: fmt.Sprintf("big%d", i), Custom: true, Inputs: in,
			})
			if err != nil {
				return err
			}
			if got := resp.Outputs.Get("blob"); !got.IsString() || got.AsString() != big {
				return fmt.Errorf("big%d: output blob of %d bytes differs from the input", i, len(got.AsString()))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// Package references need a monitor that supports parameterization: the
// client says so instead of sending what the monitor would misread.
func TestPackageRefNeedsParameterization(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithFeatures("secrets", "resourceReferences"))
	c, err := monitorclient.Dial(context.Background(), m.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if _, err := c.RegisterPackage(context.Background(), monitorclient.RegisterPackageRequest{Name: "terraform-provider"}); err == nil ||
		!strings.Contains(err.Error(), "parameterized") {
		t.Errorf("RegisterPackage: %v, want an error saying the monitor lacks parameterization", err)
	}
	_, err = c.RegisterResource(context.Background(), monitorclient.RegisterResourceRequest{
		Type: "netbox:index:Site", Name: "s", Custom: true, Parent: m.StackURN(), PackageRef: "ref-1"})
	if err == nil || !strings.Contains(err.Error(), "package references") {
		t.Errorf("RegisterResource with a packageRef: %v, want an error naming package references", err)
	}
	_, err = c.Invoke(context.Background(), monitorclient.InvokeRequest{Token: "netbox:index:getSite", PackageRef: "ref-1"})
	if err == nil || !strings.Contains(err.Error(), "package references") {
		t.Errorf("Invoke with a packageRef: %v, want an error naming package references", err)
	}
	_, err = c.Call(context.Background(), monitorclient.CallRequest{Token: "netbox:index:Site/ping", PackageRef: "ref-1"})
	if err == nil || !strings.Contains(err.Error(), "package references") {
		t.Errorf("Call with a packageRef: %v, want an error naming package references", err)
	}
	if len(m.Registrations()) != 0 || len(m.Packages()) != 0 || len(m.Invocations()) != 0 || len(m.Calls()) != 0 {
		t.Errorf("the monitor received %v, %v, %v and %v", m.Registrations(), m.Packages(), m.Invocations(), m.Calls())
	}
}
