package rpc

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/monitorclient"
)

// The converters of each message are each other's inverse: what the
// harness writes with ToX the server reads back with FromX, field for
// field, and what the server answers the harness reads as it was. A field
// a converter forgets comes back empty.

const (
	depURN   = urn.URN("urn:pulumi:dev::p::t:index:Dep::d")
	otherURN = urn.URN("urn:pulumi:dev::p::t:index:Other::o")
	provURN  = urn.URN("urn:pulumi:dev::p::pulumi:providers:t::prov")
)

func str(s string) property.Value { return property.New(s) }

// same reports whether a and b are equal, their property maps and values
// by Equals.
func same(a, b any) bool {
	return reflect.DeepEqual(normal(reflect.ValueOf(a)), normal(reflect.ValueOf(b)))
}

// normal is v with every property.Map and property.Value replaced by its
// text, which Equals values share.
func normal(v reflect.Value) any {
	switch x := v.Interface().(type) {
	case property.Map:
		return property.New(x).GoString()
	case property.Value:
		return x.GoString()
	}
	switch v.Kind() {
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out[v.Type().Field(i).Name] = normal(v.Field(i))
			}
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return normal(v.Elem())
	case reflect.Slice:
		if v.Len() == 0 {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = normal(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return nil
		}
		out := map[any]any{}
		for _, k := range v.MapKeys() {
			out[k.Interface()] = normal(v.MapIndex(k))
		}
		return out
	}
	return v.Interface()
}

func TestConstructRequestRoundTrips(t *testing.T) {
	t.Parallel()
	prov, err := providers.NewReference(provURN, "id-1")
	if err != nil {
		t.Fatal(err)
	}
	for name, req := range map[string]core.ConstructRequest{
		"zero": {},
		"every field": {
			Info: core.StackInfo{Project: "p", Stack: "dev", Organization: "org", DryRun: true, Parallel: 4,
				StackTraceHandle: "h", Config: property.NewMap(map[string]property.Value{"p:a": str("1"), "p:b": str("s").WithSecret(true)})},
			MonitorAddr: "127.0.0.1:1", Type: "t:index:C", Name: "c", Parent: depURN,
			Inputs: property.NewMap(map[string]property.Value{
				"plain":  str("x"),
				"secret": str("y").WithSecret(true),
				"dep":    str("z").WithDependencies([]urn.URN{depURN}),
			}),
			Options: monitorclient.ResourceOptions{
				Providers: map[string]providers.Reference{"t": prov}, Dependencies: []urn.URN{depURN},
				Protect: new(true), AdditionalSecretOutputs: []string{"a"},
				Aliases: []monitorclient.Alias{{URN: otherURN}, {Spec: &monitorclient.AliasSpec{Name: "old", NoParent: true}},
					{Spec: &monitorclient.AliasSpec{Type: "t:index:Old", ParentURN: depURN, Stack: "s", Project: "q"}}},
				CustomTimeouts: &monitorclient.CustomTimeouts{Create: "1m", Update: "2m", Delete: "3m", Read: "4m"},
				DeletedWith:    otherURN, DeleteBeforeReplace: new(false), IgnoreChanges: []string{"b"},
				ReplaceOnChanges: []string{"c"}, RetainOnDelete: new(true), ReplaceWith: []urn.URN{otherURN},
				ReplacementTrigger: str("v").WithSecret(true),
				Hooks: &monitorclient.ResourceHooks{BeforeCreate: []string{"b"}, AfterCreate: []string{"a"}, BeforeUpdate: []string{"bu"},
					AfterUpdate: []string{"au"}, BeforeDelete: []string{"bd"}, AfterDelete: []string{"ad"}, OnError: []string{"e"}},
			},
		},
	} {
		msg, err := ToConstructRequest(req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := FromConstructRequest(msg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !same(got, req) {
			t.Errorf("%s: read back\n%#v\nwant\n%#v", name, normal(reflect.ValueOf(got)), normal(reflect.ValueOf(req)))
		}
	}
}

func TestCallAndInvokeRoundTrip(t *testing.T) {
	t.Parallel()
	call := core.CallRequest{
		Info:        core.StackInfo{Project: "p", Stack: "dev", Parallel: 2, Config: property.NewMap(map[string]property.Value{"p:k": str("v").WithSecret(true)})},
		MonitorAddr: "127.0.0.1:1", Token: "t:index:C/m",
		Args: property.NewMap(map[string]property.Value{
			"__self__": property.New(property.ResourceReference{URN: depURN, Name: "d", Type: "t:index:Dep", ID: str("i-1")}),
			"x":        str("1").WithDependencies([]urn.URN{otherURN}),
		}),
	}
	msg, err := ToCallRequest(call)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromCallRequest(msg); err != nil || !same(got, call) {
		t.Errorf("call read back %#v, %v", got, err)
	}
	answer := core.CallResponse{Return: property.NewMap(map[string]property.Value{"r": str("x").WithDependencies([]urn.URN{depURN})}),
		ReturnDependencies: map[string][]urn.URN{"r": {depURN}}}
	amsg, err := ToCallResponse(answer, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromCallResponse(amsg); err != nil || !same(got, answer) {
		t.Errorf("call answer read back %#v, %v", got, err)
	}
	refused := core.CallResponse{Failures: []diag.CheckFailure{{Property: "x", Reason: "bad"}}}
	if amsg, err = ToCallResponse(refused, false); err != nil {
		t.Fatal(err)
	}
	if got, err := FromCallResponse(amsg); err != nil || !same(got, refused) {
		t.Errorf("refused call read back %#v, %v", got, err)
	}

	invoke := core.InvokeRequest{Token: "t:index:f", Args: property.NewMap(map[string]property.Value{"a": str("b").WithSecret(true)}), Preview: true}
	imsg, err := ToInvokeRequest(invoke)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromInvokeRequest(imsg); err != nil || !same(got, invoke) {
		t.Errorf("invoke read back %#v, %v", got, err)
	}
	for _, answer := range []core.InvokeResponse{
		{Return: property.NewMap(map[string]property.Value{"r": str("s").WithSecret(true)})},
		{Failures: []diag.CheckFailure{{Property: "a", Reason: "bad"}}},
	} {
		msg, err := ToInvokeResponse(answer, false)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := FromInvokeResponse(msg); err != nil || !same(got, answer) {
			t.Errorf("invoke answer read back %#v, %v; want %#v", got, err, answer)
		}
	}
}

func TestCRUDRoundTrips(t *testing.T) {
	t.Parallel()
	info := custom.ResourceInfo{URN: depURN, Name: "d", Type: "t:index:Dep"}
	ins := property.NewMap(map[string]property.Value{"a": str("1"), "s": str("2").WithSecret(true)})
	outs := ins.Set("id", str("i"))
	check := custom.CheckRequest{ResourceInfo: info, OldInputs: ins, Inputs: outs, RandomSeed: []byte{1},
		Autonaming: &custom.Autonaming{ProposedName: "n", Mode: custom.AutonamingEnforce}}
	if msg, err := ToCheckRequest(check); err != nil {
		t.Fatal(err)
	} else if got, err := FromCheckRequest(msg); err != nil || !same(got, check) {
		t.Errorf("check read back %#v, %v", got, err)
	}
	checked := custom.CheckResponse{Inputs: ins, Failures: []diag.CheckFailure{{Property: "a", Reason: "r"}}}
	if msg, err := ToCheckResponse(checked, false); err != nil {
		t.Fatal(err)
	} else if got, err := FromCheckResponse(msg); err != nil || !same(got, checked) {
		t.Errorf("check answer read back %#v, %v", got, err)
	}
	diff := custom.DiffRequest{ResourceInfo: info, ID: "i", OldInputs: ins, OldOutputs: outs, Inputs: outs, IgnoreChanges: []string{"a"}}
	if msg, err := ToDiffRequest(diff); err != nil {
		t.Fatal(err)
	} else if got, err := FromDiffRequest(msg); err != nil || !same(got, diff) {
		t.Errorf("diff read back %#v, %v", got, err)
	}
	diffed := custom.DiffResponse{HasChanges: true, Changes: map[string]custom.DiffKind{"a": custom.DiffUpdateReplace},
		Replaces: []string{"a"}, DeleteBeforeReplace: true}
	if got := FromDiffResponse(ToDiffResponse(diffed)); !same(got, diffed) {
		t.Errorf("diff answer read back %#v", got)
	}
	create := custom.CreateRequest{ResourceInfo: info, Inputs: ins, Timeout: 90 * time.Second}
	if msg, err := ToCreateRequest(create, true); err != nil {
		t.Fatal(err)
	} else if got, preview, err := FromCreateRequest(msg); err != nil || !preview || !same(got, create) {
		t.Errorf("create read back %#v, preview %v, %v", got, preview, err)
	}
	created := custom.CreateResponse{ID: "i", Outputs: outs}
	if msg, err := ToCreateResponse(created, false); err != nil {
		t.Fatal(err)
	} else if got, err := FromCreateResponse(msg); err != nil || !same(got, created) {
		t.Errorf("create answer read back %#v, %v", got, err)
	}
	read := custom.ReadRequest{ResourceInfo: info, ID: "i", Inputs: ins, Outputs: outs}
	if msg, err := ToReadRequest(read); err != nil {
		t.Fatal(err)
	} else if got, err := FromReadRequest(msg); err != nil || !same(got, read) {
		t.Errorf("read read back %#v, %v", got, err)
	}
	for _, answer := range []custom.ReadResponse{{ID: "i", Inputs: ins, Outputs: outs}, {}} {
		if msg, err := ToReadResponse(answer, false); err != nil {
			t.Fatal(err)
		} else if got, err := FromReadResponse(msg); err != nil || !same(got, answer) {
			t.Errorf("read answer read back %#v, %v; want %#v", got, err, answer)
		}
	}
	update := custom.UpdateRequest{ResourceInfo: info, ID: "i", OldInputs: ins, OldOutputs: outs, Inputs: outs,
		IgnoreChanges: []string{"b"}, Timeout: time.Minute}
	if msg, err := ToUpdateRequest(update, false); err != nil {
		t.Fatal(err)
	} else if got, preview, err := FromUpdateRequest(msg); err != nil || preview || !same(got, update) {
		t.Errorf("update read back %#v, preview %v, %v", got, preview, err)
	}
	updated := custom.UpdateResponse{Outputs: outs}
	if msg, err := ToUpdateResponse(updated, false); err != nil {
		t.Fatal(err)
	} else if got, err := FromUpdateResponse(msg); err != nil || !same(got, updated) {
		t.Errorf("update answer read back %#v, %v", got, err)
	}
	del := custom.DeleteRequest{ResourceInfo: info, ID: "i", Inputs: ins, Outputs: outs, Timeout: time.Second}
	if msg, err := ToDeleteRequest(del); err != nil {
		t.Fatal(err)
	} else if got, err := FromDeleteRequest(msg); err != nil || !same(got, del) {
		t.Errorf("delete read back %#v, %v", got, err)
	}
}

func TestConfigurationRoundTrips(t *testing.T) {
	t.Parallel()
	config := property.NewMap(map[string]property.Value{"a": str("1"), "s": str("2").WithSecret(true)})
	msg, err := ToCheckConfigRequest(config)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromCheckConfigRequest(msg); err != nil || !got.Equals(config) {
		t.Errorf("CheckConfig read back %v, %v", got, err)
	}
	failures := []diag.CheckFailure{{Property: "a", Reason: "r"}}
	answer, err := ToCheckConfigResponse(config, failures, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, fs, err := FromCheckConfigResponse(answer); err != nil || !got.Equals(config) || !same(fs, failures) {
		t.Errorf("CheckConfig answer read back %v, %v, %v", got, fs, err)
	}
	cmsg, err := ToConfigureRequest(config)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromConfigureRequest(cmsg); err != nil || !got.Equals(config) {
		t.Errorf("Configure read back %v, %v", got, err)
	}
}

// An InputError of Construct comes back from its status as it was sent; a
// status without details comes back as it is.
func TestStatusRoundTrips(t *testing.T) {
	t.Parallel()
	ie := &diag.InputError{Message: "invalid inputs", Failures: []diag.CheckFailure{{Property: "a", Reason: "bad"}}}
	var got *diag.InputError
	if err := FromStatus(constructStatus(ie)); !errors.As(err, &got) || !same(got, ie) {
		t.Errorf("read back %#v, want %#v", err, ie)
	}
	plain := toStatus(errors.New("boom"))
	if err := FromStatus(plain); err != plain {
		t.Errorf("a plain status read back as %v", err)
	}
}
