package monitorclient

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/diag"
)

// Wire constants, spelled out so the tests do not share the SDK's.
const (
	sigKey      = "4dabf18193072939515e22adb298388d"
	secretSig   = "1b47061264138c4ac30d75fd1eb44270"
	resRefSig   = "5cf8f73096256a8f31e491e813e4eb8e"
	outputSig   = "d0e6a833031e9bbcd3f4e8bde6ca49a4"
	unknownStr  = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
	stackURN    = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
	compURN     = "urn:pulumi:dev::proj::pkg:index:Comp::c"
	childURN    = "urn:pulumi:dev::proj::pkg:index:Comp$pkg:index:Child::c-child"
	customURN   = "urn:pulumi:dev::proj::pkg:index:Thing::t"
	providerRef = "urn:pulumi:dev::proj::pulumi:providers:pkg::default::4b2a"
)

var provRef, _ = providers.ParseReference(providerRef)

var allFeatures = Features{
	Secrets: true, ResourceReferences: true, OutputValues: true, AliasSpecs: true, DeletedWith: true,
}

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
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

func assertProto(t *testing.T, got, want proto.Message) {
	t.Helper()
	if !proto.Equal(got, want) {
		t.Errorf("mismatch\n got: %s\nwant: %s", prototext.Format(got), prototext.Format(want))
	}
}

func assertMap(t *testing.T, got, want property.Map) {
	t.Helper()
	if !got.Equals(want) {
		t.Errorf("mismatch\n got: %#v\nwant: %#v", got, want)
	}
}

// baseRegister is what a minimal request becomes on the wire.
func baseRegister() *pulumirpc.RegisterResourceRequest {
	return &pulumirpc.RegisterResourceRequest{
		Type:                    "pkg:index:Thing",
		Name:                    "t",
		Object:                  &structpb.Struct{},
		AcceptSecrets:           true,
		AcceptResources:         true,
		AcceptsByteString:       true,
		SupportsPartialValues:   true,
		SupportsResultReporting: true,
	}
}

func TestEncodeRegisterResourceRequest(t *testing.T) {
	t.Parallel()
	minimal := RegisterResourceRequest{Type: "pkg:index:Thing", Name: "t"}
	with := func(f func(*RegisterResourceRequest)) RegisterResourceRequest {
		r := minimal
		f(&r)
		return r
	}
	want := func(f func(*pulumirpc.RegisterResourceRequest)) *pulumirpc.RegisterResourceRequest {
		r := baseRegister()
		f(r)
		return r
	}
	tests := []struct {
		name     string
		req      RegisterResourceRequest
		features Features
		want     *pulumirpc.RegisterResourceRequest
		wantErr  string
	}{
		{name: "zero request", req: RegisterResourceRequest{}, wantErr: "type cannot be empty"},
		{name: "no name", req: RegisterResourceRequest{Type: "pkg:index:Thing"}, wantErr: "name cannot be empty"},
		{name: "minimal", req: minimal, want: baseRegister()},
		{
			name: "parent", req: with(func(r *RegisterResourceRequest) { r.Parent = compURN }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Parent = compURN }),
		},
		{
			name: "custom", req: with(func(r *RegisterResourceRequest) { r.Custom = true }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Custom = true }),
		},
		{
			name: "remote", req: with(func(r *RegisterResourceRequest) { r.Remote = true }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Remote = true }),
		},
		{
			name: "inputs with secret, unknown, reference", features: allFeatures,
			req: with(func(r *RegisterResourceRequest) {
				r.Inputs = pmap(map[string]property.Value{
					"s": str("x").WithSecret(true),
					"u": property.New(property.Computed),
					"r": ref(customURN, "id1"),
					"n": property.New(1.5),
				})
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.Object = mustStruct(t, map[string]any{
					"s": map[string]any{sigKey: secretSig, "value": "x"},
					"u": unknownStr,
					"r": map[string]any{sigKey: resRefSig, "urn": customURN, "id": "id1"},
					"n": 1.5,
				})
				r.PropertyDependencies = map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{
					"s": {}, "u": {}, "r": {}, "n": {},
				}
			}),
		},
		{
			name:     "inputs downgraded without secrets and resourceReferences",
			features: Features{},
			req: with(func(r *RegisterResourceRequest) {
				r.Inputs = pmap(map[string]property.Value{"s": str("x").WithSecret(true), "r": ref(customURN, "id1")})
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.Object = mustStruct(t, map[string]any{"s": "x", "r": "id1"})
				r.PropertyDependencies = map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{
					"s": {}, "r": {},
				}
			}),
		},
		{
			name: "dependency markers become property dependencies", features: allFeatures,
			req: with(func(r *RegisterResourceRequest) {
				r.Inputs = pmap(map[string]property.Value{
					"a": withDeps(str("x"), customURN, childURN),
					"b": property.New(map[string]property.Value{"in": withDeps(str("y"), compURN)}),
				})
				r.PropertyDependencies = map[string][]urn.URN{"a": {stackURN}, "c": {providerRef}}
				r.Dependencies = []urn.URN{"urn:pulumi:dev::proj::pkg:index:Other::o"}
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				// Not remote: output values are downgraded to plain values.
				r.Object = mustStruct(t, map[string]any{"a": "x", "b": map[string]any{"in": "y"}})
				r.PropertyDependencies = map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{
					"a": {Urns: []string{childURN, customURN, stackURN}},
					"b": {Urns: []string{compURN}},
					"c": {Urns: []string{providerRef}},
				}
				r.Dependencies = []string{
					customURN, childURN, compURN, "urn:pulumi:dev::proj::pkg:index:Other::o", stackURN, providerRef,
				}
				slices.Sort(r.Dependencies)
			}),
		},
		{
			name: "remote keeps output values", features: allFeatures,
			req: with(func(r *RegisterResourceRequest) {
				r.Remote = true
				r.Inputs = pmap(map[string]property.Value{
					"a": withDeps(str("x").WithSecret(true), customURN),
					"u": withDeps(property.New(property.Computed), customURN),
				})
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.Remote = true
				r.Object = mustStruct(t, map[string]any{
					"a": map[string]any{sigKey: outputSig, "value": "x", "secret": true, "dependencies": []any{customURN}},
					"u": map[string]any{sigKey: outputSig, "dependencies": []any{customURN}},
				})
				r.PropertyDependencies = map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{
					"a": {Urns: []string{customURN}}, "u": {Urns: []string{customURN}},
				}
				r.Dependencies = []string{customURN}
			}),
		},
		{
			name: "remote without outputValues downgrades", features: Features{Secrets: true},
			req: with(func(r *RegisterResourceRequest) {
				r.Remote = true
				r.Inputs = pmap(map[string]property.Value{"a": withDeps(str("x").WithSecret(true), customURN)})
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.Remote = true
				r.Object = mustStruct(t, map[string]any{"a": map[string]any{sigKey: secretSig, "value": "x"}})
				r.PropertyDependencies = map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{
					"a": {Urns: []string{customURN}},
				}
				r.Dependencies = []string{customURN}
			}),
		},
		{
			name: "provider", req: with(func(r *RegisterResourceRequest) { r.Provider = provRef }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Provider = providerRef }),
		},
		{
			name: "providers", req: with(func(r *RegisterResourceRequest) { r.Providers = map[string]providers.Reference{"pkg": provRef} }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Providers = map[string]string{"pkg": providerRef} }),
		},
		{
			name: "dependencies sorted and deduplicated",
			req:  with(func(r *RegisterResourceRequest) { r.Dependencies = []urn.URN{customURN, compURN, customURN} }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Dependencies = []string{compURN, customURN} }),
		},
		{
			name: "alias specs", features: Features{AliasSpecs: true},
			req: with(func(r *RegisterResourceRequest) {
				r.Aliases = []Alias{
					{URN: customURN},
					{Spec: &AliasSpec{Name: "old", NoParent: true}},
					{Spec: &AliasSpec{Type: "pkg:index:Old", ParentURN: compURN, Stack: "s", Project: "p"}},
				}
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.AliasSpecs = true
				r.Aliases = []*pulumirpc.Alias{
					{Alias: &pulumirpc.Alias_Urn{Urn: customURN}},
					{Alias: &pulumirpc.Alias_Spec_{Spec: &pulumirpc.Alias_Spec{
						Name: "old", Parent: &pulumirpc.Alias_Spec_NoParent{NoParent: true},
					}}},
					{Alias: &pulumirpc.Alias_Spec_{Spec: &pulumirpc.Alias_Spec{
						Type: "pkg:index:Old", Stack: "s", Project: "p",
						Parent: &pulumirpc.Alias_Spec_ParentUrn{ParentUrn: compURN},
					}}},
				}
			}),
		},
		{
			name: "aliases collapsed without aliasSpecs",
			req: with(func(r *RegisterResourceRequest) {
				r.Parent = compURN
				r.Aliases = []Alias{{URN: customURN}, {Spec: &AliasSpec{Name: "old"}}, {Spec: &AliasSpec{NoParent: true}}}
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.Parent = compURN
				r.AliasURNs = []string{
					customURN,
					"urn:pulumi:dev::proj::pkg:index:Comp$pkg:index:Thing::old",
					"urn:pulumi:dev::proj::pkg:index:Thing::t",
				}
			}),
		},
		{
			name:    "bad alias",
			req:     with(func(r *RegisterResourceRequest) { r.Aliases = []Alias{{}} }),
			wantErr: "neither a URN nor a spec",
		},
		{
			name: "additional secret outputs",
			req:  with(func(r *RegisterResourceRequest) { r.AdditionalSecretOutputs = []string{"pw"} }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.AdditionalSecretOutputs = []string{"pw"} }),
		},
		{
			name: "protect false is sent",
			req:  with(func(r *RegisterResourceRequest) { r.Protect = new(false) }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Protect = new(false) }),
		},
		{
			name: "ignore changes",
			req:  with(func(r *RegisterResourceRequest) { r.IgnoreChanges = []string{"a.b"} }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.IgnoreChanges = []string{"a.b"} }),
		},
		{
			name: "replace on changes",
			req:  with(func(r *RegisterResourceRequest) { r.ReplaceOnChanges = []string{"*"} }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.ReplaceOnChanges = []string{"*"} }),
		},
		{
			name: "custom timeouts",
			req: with(func(r *RegisterResourceRequest) {
				r.CustomTimeouts = &CustomTimeouts{Create: "1m", Update: "2m", Delete: "3m"}
			}),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.CustomTimeouts = &pulumirpc.RegisterResourceRequest_CustomTimeouts{Create: "1m", Update: "2m", Delete: "3m"}
			}),
		},
		{
			name: "delete before replace false is defined",
			req:  with(func(r *RegisterResourceRequest) { r.DeleteBeforeReplace = new(false) }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.DeleteBeforeReplaceDefined = true }),
		},
		{
			name: "delete before replace true",
			req:  with(func(r *RegisterResourceRequest) { r.DeleteBeforeReplace = new(true) }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) {
				r.DeleteBeforeReplace, r.DeleteBeforeReplaceDefined = true, true
			}),
		},
		{
			name: "retain on delete",
			req:  with(func(r *RegisterResourceRequest) { r.RetainOnDelete = new(true) }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.RetainOnDelete = new(true) }),
		},
		{
			name: "deleted with", features: Features{DeletedWith: true},
			req:  with(func(r *RegisterResourceRequest) { r.DeletedWith = customURN }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.DeletedWith = customURN }),
		},
		{
			name:    "deleted with unsupported",
			req:     with(func(r *RegisterResourceRequest) { r.DeletedWith = customURN }),
			wantErr: "does not support the DeletedWith option",
		},
		{
			name: "version", req: with(func(r *RegisterResourceRequest) { r.Version = "1.2.3" }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.Version = "1.2.3" }),
		},
		{
			name: "plugin download URL", req: with(func(r *RegisterResourceRequest) { r.PluginDownloadURL = "https://x" }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.PluginDownloadURL = "https://x" }),
		},
		{
			name: "import id", req: with(func(r *RegisterResourceRequest) { r.ImportID = "i-1" }),
			want: want(func(r *pulumirpc.RegisterResourceRequest) { r.ImportId = "i-1" }),
		},
		{
			// What proto would refuse to marshal, the engine could not read.
			name: "input name not UTF-8", features: allFeatures,
			req:     with(func(r *RegisterResourceRequest) { r.Inputs = pmap(map[string]property.Value{"\xff": str("x")}) }),
			wantErr: `property name "\xff" is not valid UTF-8`,
		},
		{
			name: "dependency key not UTF-8", features: allFeatures,
			req:     with(func(r *RegisterResourceRequest) { r.PropertyDependencies = map[string][]urn.URN{"\xfe": {customURN}} }),
			wantErr: `property name "\xfe" is not valid UTF-8`,
		},
		{
			name: "dependency not UTF-8", features: allFeatures,
			req:     with(func(r *RegisterResourceRequest) { r.PropertyDependencies = map[string][]urn.URN{"a": {"urn:\xff"}} }),
			wantErr: "invalid UTF-8",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := encodeRegisterResourceRequest([]byte{}, tt.req, tt.features)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got pulumirpc.RegisterResourceRequest
			if err := proto.Unmarshal(slices.Concat(b.segs...), &got); err != nil {
				t.Fatalf("the engine could not read %x: %v", b, err)
			}
			assertProto(t, &got, tt.want)
		})
	}
}

func TestCollapseAlias(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		parent  urn.URN
		alias   Alias
		want    string
		wantErr string
	}{
		{name: "zero", alias: Alias{}, wantErr: "neither"},
		{name: "both", alias: Alias{URN: customURN, Spec: &AliasSpec{}}, wantErr: "both"},
		{name: "urn", alias: Alias{URN: customURN}, want: customURN},
		{name: "empty spec keeps identity", parent: stackURN, alias: Alias{Spec: &AliasSpec{}},
			want: "urn:pulumi:dev::proj::pkg:index:Thing::t"},
		{name: "name", parent: compURN, alias: Alias{Spec: &AliasSpec{Name: "n2"}},
			want: "urn:pulumi:dev::proj::pkg:index:Comp$pkg:index:Thing::n2"},
		{name: "type", parent: stackURN, alias: Alias{Spec: &AliasSpec{Type: "pkg:index:Old"}},
			want: "urn:pulumi:dev::proj::pkg:index:Old::t"},
		{name: "stack and project", alias: Alias{Spec: &AliasSpec{Stack: "s", Project: "p"}},
			want: "urn:pulumi:s::p::pkg:index:Thing::t"},
		{name: "parent urn", parent: stackURN, alias: Alias{Spec: &AliasSpec{ParentURN: childURN}},
			want: "urn:pulumi:dev::proj::pkg:index:Comp$pkg:index:Child$pkg:index:Thing::t"},
		{name: "no parent", parent: compURN, alias: Alias{Spec: &AliasSpec{NoParent: true}},
			want: "urn:pulumi:dev::proj::pkg:index:Thing::t"},
		{name: "no stack anywhere", alias: Alias{Spec: &AliasSpec{Name: "x"}}, wantErr: "cannot compute alias URN"},
		{name: "parent and no parent", alias: Alias{Spec: &AliasSpec{ParentURN: compURN, NoParent: true}},
			wantErr: "both a parent URN and NoParent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := collapseAlias(tt.alias, "pkg:index:Thing", "t", tt.parent)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestFromRPCRegisterResourceResponse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   *pulumirpc.RegisterResourceResponse
		want RegisterResourceResponse
	}{
		{name: "nil", in: nil, want: RegisterResourceResponse{}},
		{name: "zero", in: &pulumirpc.RegisterResourceResponse{}, want: RegisterResourceResponse{}},
		{name: "urn", in: &pulumirpc.RegisterResourceResponse{Urn: customURN}, want: RegisterResourceResponse{URN: customURN}},
		{name: "id", in: &pulumirpc.RegisterResourceResponse{Id: "i"}, want: RegisterResourceResponse{ID: "i"}},
		{
			name: "object keeps secrets unknowns references and output values",
			in: &pulumirpc.RegisterResourceResponse{Object: mustStruct(t, map[string]any{
				"s": map[string]any{sigKey: secretSig, "value": "x"},
				"u": unknownStr,
				"r": map[string]any{sigKey: resRefSig, "urn": customURN, "id": "id1"},
				"o": map[string]any{sigKey: outputSig, "value": "v", "dependencies": []any{compURN}},
				"l": []any{1.0, true},
			})},
			want: RegisterResourceResponse{Outputs: pmap(map[string]property.Value{
				"s": str("x").WithSecret(true),
				"u": property.New(property.Computed),
				"r": ref(customURN, "id1"),
				"o": withDeps(str("v"), compURN),
				"l": property.New([]property.Value{property.New(1.0), property.New(true)}),
			})},
		},
		{name: "stables", in: &pulumirpc.RegisterResourceResponse{Stables: []string{"a"}},
			want: RegisterResourceResponse{Stables: []string{"a"}}},
		{
			name: "property dependencies",
			in: &pulumirpc.RegisterResourceResponse{PropertyDependencies: map[string]*pulumirpc.RegisterResourceResponse_PropertyDependencies{
				"a": {Urns: []string{customURN}},
			}},
			want: RegisterResourceResponse{PropertyDependencies: map[string][]urn.URN{"a": {customURN}}},
		},
		{name: "result fail", in: &pulumirpc.RegisterResourceResponse{Result: pulumirpc.Result_FAIL},
			want: RegisterResourceResponse{Result: ResultFail}},
		{name: "result skip", in: &pulumirpc.RegisterResourceResponse{Result: pulumirpc.Result_SKIP},
			want: RegisterResourceResponse{Result: ResultSkip}},
		{name: "unknown", in: &pulumirpc.RegisterResourceResponse{Unknown: true},
			want: RegisterResourceResponse{Unknown: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := fromRPCRegisterResourceResponse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			assertResponse(t, got, tt.want)
			// What the client reads: the same from the message's bytes.
			b, err := proto.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			orig := slices.Clone(b)
			got, err = decodeRegisterResourceResponse([][]byte{b}, property.Map{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(b, orig) {
				t.Errorf("decoding changed gRPC's buffer")
			}
			clear(b) // gRPC reuses its buffer: the response must not refer to it
			assertResponse(t, got, tt.want)
		})
	}
}

func assertResponse(t *testing.T, got, want RegisterResourceResponse) {
	t.Helper()
	assertMap(t, got.Outputs, want.Outputs)
	got.Outputs, want.Outputs = property.Map{}, property.Map{}
	if got.URN != want.URN || got.ID != want.ID || got.Result != want.Result ||
		got.Unknown != want.Unknown || !slices.Equal(got.Stables, want.Stables) ||
		!maps.EqualFunc(got.PropertyDependencies, want.PropertyDependencies, slices.Equal) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// Encodings an engine would hardly send, which proto still reads: the
// bytes path gives proto's answer, or proto's error.
func TestDecodeRegisterResourceResponseUnusual(t *testing.T) {
	t.Parallel()
	enc := func(m *pulumirpc.RegisterResourceResponse) []byte {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a := enc(&pulumirpc.RegisterResourceResponse{Urn: customURN, Object: mustStruct(t, map[string]any{"a": 1.0})})
	b := enc(&pulumirpc.RegisterResourceResponse{Id: "i", Object: mustStruct(t, map[string]any{"b": "x"})})
	secretOut := enc(&pulumirpc.RegisterResourceResponse{Object: mustStruct(t, map[string]any{
		"s": map[string]any{sigKey: secretSig, "value": "x"}})})
	badUTF8 := enc(&pulumirpc.RegisterResourceResponse{Object: &structpb.Struct{Fields: map[string]*structpb.Value{
		"k": structpb.NewNumberValue(1)}}})
	badUTF8 = []byte(strings.Replace(string(badUTF8), "k", "\xff", 1))
	for name, in := range map[string][]byte{
		"empty":                {},
		"object twice, merged": append(append([]byte{}, a...), b...),
		"object as a varint":   {0x18, 0x01},
		"unknown field":        append([]byte{0xc8, 0x3e, 0x01}, a...), // field 1001
		"truncated":            a[:len(a)-2],
		"secret output":        secretOut,
		"invalid UTF-8 key":    badUTF8,
		"object 4000 deep":     enc(&pulumirpc.RegisterResourceResponse{Urn: customURN, Object: deepStruct(4000)}),
		"object 300 deep":      enc(&pulumirpc.RegisterResourceResponse{Urn: customURN, Object: deepStruct(300)}),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var msg pulumirpc.RegisterResourceResponse
			wantErr := proto.Unmarshal(in, &msg)
			var want RegisterResourceResponse
			if wantErr == nil {
				want, wantErr = fromRPCRegisterResourceResponse(&msg)
			}
			got, err := decodeRegisterResourceResponse([][]byte{in}, property.Map{})
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("error %v, want %v", err, wantErr)
			}
			if err == nil {
				assertResponse(t, got, want)
			}
		})
	}
}

func TestToRPCRegisterResourceOutputsRequest(t *testing.T) {
	t.Parallel()
	if _, err := toRPCRegisterResourceOutputsRequest(RegisterResourceOutputsRequest{}, allFeatures); err == nil {
		t.Error("zero request: want error for empty URN")
	}
	got, err := toRPCRegisterResourceOutputsRequest(RegisterResourceOutputsRequest{URN: compURN}, allFeatures)
	if err != nil {
		t.Fatal(err)
	}
	assertProto(t, got, &pulumirpc.RegisterResourceOutputsRequest{Urn: compURN, Outputs: &structpb.Struct{}})

	got, err = toRPCRegisterResourceOutputsRequest(RegisterResourceOutputsRequest{
		URN: compURN,
		Outputs: pmap(map[string]property.Value{
			"s": str("x").WithSecret(true),
			"d": withDeps(str("y"), customURN), // outputs never carry output values
		}),
	}, allFeatures)
	if err != nil {
		t.Fatal(err)
	}
	assertProto(t, got, &pulumirpc.RegisterResourceOutputsRequest{Urn: compURN, Outputs: mustStruct(t, map[string]any{
		"s": map[string]any{sigKey: secretSig, "value": "x"}, "d": "y",
	})})
}

func TestToRPCInvokeRequest(t *testing.T) {
	t.Parallel()
	base := func() *pulumirpc.ResourceInvokeRequest {
		return &pulumirpc.ResourceInvokeRequest{
			Tok: "pkg:index:fn", Args: &structpb.Struct{}, AcceptResources: true, AcceptsByteString: true,
		}
	}
	tests := []struct {
		name    string
		req     InvokeRequest
		want    func(*pulumirpc.ResourceInvokeRequest)
		wantErr bool
	}{
		{name: "zero", req: InvokeRequest{}, wantErr: true},
		{name: "token", req: InvokeRequest{Token: "pkg:index:fn"}, want: func(*pulumirpc.ResourceInvokeRequest) {}},
		{
			name: "args",
			req: InvokeRequest{Token: "pkg:index:fn", Args: pmap(map[string]property.Value{
				"s": str("x").WithSecret(true), "d": withDeps(str("y"), customURN),
			})},
			want: func(r *pulumirpc.ResourceInvokeRequest) {
				r.Args = mustStruct(t, map[string]any{"s": map[string]any{sigKey: secretSig, "value": "x"}, "d": "y"})
			},
		},
		{name: "provider", req: InvokeRequest{Token: "pkg:index:fn", Provider: provRef},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.Provider = providerRef }},
		{name: "version", req: InvokeRequest{Token: "pkg:index:fn", Version: "1.0.0"},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.Version = "1.0.0" }},
		{name: "plugin download URL", req: InvokeRequest{Token: "pkg:index:fn", PluginDownloadURL: "u"},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.PluginDownloadURL = "u" }},
		{name: "depends on", req: InvokeRequest{Token: "pkg:index:fn", DependsOn: []urn.URN{customURN}},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.DependsOn = []string{customURN} }},
		{name: "parent", req: InvokeRequest{Token: "pkg:index:fn", Parent: compURN},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.Parent = compURN }},
		{name: "package ref", req: InvokeRequest{Token: "pkg:index:fn", PackageRef: "ref-1"},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.PackageRef = "ref-1" }},
		{name: "stack trace handle", req: InvokeRequest{Token: "pkg:index:fn", ParentStackTraceHandle: "h"},
			want: func(r *pulumirpc.ResourceInvokeRequest) { r.ParentStackTraceHandle = "h" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			features := allFeatures
			features.Parameterization = true // for the package ref
			got, err := toRPCInvokeRequest(tt.req, features)
			if tt.wantErr {
				if err == nil {
					t.Fatal("want error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w := base()
			tt.want(w)
			assertProto(t, got, w)
		})
	}
}

func TestFromRPCInvokeResponse(t *testing.T) {
	t.Parallel()
	got, err := fromRPCInvokeResponse("f", nil)
	if err != nil || got.Unknown || got.Return.Len() != 0 {
		t.Errorf("nil: got %+v, %v", got, err)
	}
	got, err = fromRPCInvokeResponse("f", &pulumirpc.ResourceInvokeResponse{})
	if err != nil || got.Unknown || got.Return.Len() != 0 {
		t.Errorf("zero: got %+v, %v", got, err)
	}
	got, err = fromRPCInvokeResponse("f", &pulumirpc.ResourceInvokeResponse{
		Return: mustStruct(t, map[string]any{"s": map[string]any{sigKey: secretSig, "value": "x"}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	assertMap(t, got.Return, pmap(map[string]property.Value{"s": str("x").WithSecret(true)}))

	got, err = fromRPCInvokeResponse("f", &pulumirpc.ResourceInvokeResponse{Unknown: true, Return: mustStruct(t, map[string]any{"a": 1.0})})
	if err != nil || !got.Unknown || got.Return.Len() != 0 {
		t.Errorf("unknown: got %+v, %v", got, err)
	}

	_, err = fromRPCInvokeResponse("pkg:index:fn", &pulumirpc.ResourceInvokeResponse{Failures: []*pulumirpc.CheckFailure{
		{Property: "a", Reason: "bad"}, {Reason: "worse"},
	}})
	var fe *FailuresError
	if !errors.As(err, &fe) {
		t.Fatalf("failures: err = %v, want *FailuresError", err)
	}
	if fe.Token != "pkg:index:fn" || !slices.Equal(fe.Failures, []diag.CheckFailure{{Property: "a", Reason: "bad"}, {Property: "", Reason: "worse"}}) {
		t.Errorf("failures: got %+v", fe)
	}
	if want := "provider reported failures: bad (a); worse"; fe.Error() != want {
		t.Errorf("message %q, want %q", fe.Error(), want)
	}
}

func TestFromGetResourceReturn(t *testing.T) {
	t.Parallel()
	got, err := fromGetResourceReturn(property.Map{})
	if err != nil || got.URN != "" || got.State.Len() != 0 {
		t.Errorf("zero: %+v %v", got, err)
	}
	state := pmap(map[string]property.Value{"a": str("b").WithSecret(true)})
	got, err = fromGetResourceReturn(pmap(map[string]property.Value{
		"urn": str(customURN), "id": str("i"), "provider": str(providerRef), "state": property.New(state),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got.URN != customURN || got.ID != "i" || got.Provider != provRef {
		t.Errorf("got %+v", got)
	}
	assertMap(t, got.State, state)
	if _, err := fromGetResourceReturn(pmap(map[string]property.Value{"id": property.New(1.0)})); err == nil {
		t.Error("numeric id: want error")
	}
	if _, err := fromGetResourceReturn(pmap(map[string]property.Value{"state": str("x")})); err == nil {
		t.Error("string state: want error")
	}
}

func TestToRPCCallRequest(t *testing.T) {
	t.Parallel()
	base := func() *pulumirpc.ResourceCallRequest {
		return &pulumirpc.ResourceCallRequest{Tok: "pkg:index:Comp/m", Args: &structpb.Struct{}, AcceptsByteString: true}
	}
	tests := []struct {
		name     string
		req      CallRequest
		features Features
		want     func(*pulumirpc.ResourceCallRequest)
		wantErr  bool
	}{
		{name: "zero", req: CallRequest{}, wantErr: true},
		{name: "token", req: CallRequest{Token: "pkg:index:Comp/m"}, want: func(*pulumirpc.ResourceCallRequest) {}},
		{
			name: "args with self and markers", features: allFeatures,
			req: CallRequest{Token: "pkg:index:Comp/m", Args: pmap(map[string]property.Value{
				"__self__": ref(compURN, ""),
				"x":        withDeps(str("v"), customURN),
			}), ArgDependencies: map[string][]urn.URN{"x": {childURN}}},
			want: func(r *pulumirpc.ResourceCallRequest) {
				r.Args = mustStruct(t, map[string]any{
					"__self__": map[string]any{sigKey: resRefSig, "urn": compURN},
					"x":        map[string]any{sigKey: outputSig, "value": "v", "dependencies": []any{customURN}},
				})
				r.ArgDependencies = map[string]*pulumirpc.ResourceCallRequest_ArgumentDependencies{
					"__self__": {}, "x": {Urns: []string{childURN, customURN}},
				}
			},
		},
		{
			name: "args without outputValues", features: Features{Secrets: true, ResourceReferences: true},
			req: CallRequest{Token: "pkg:index:Comp/m", Args: pmap(map[string]property.Value{
				"x": withDeps(str("v"), customURN),
			})},
			want: func(r *pulumirpc.ResourceCallRequest) {
				r.Args = mustStruct(t, map[string]any{"x": "v"})
				r.ArgDependencies = map[string]*pulumirpc.ResourceCallRequest_ArgumentDependencies{
					"x": {Urns: []string{customURN}},
				}
			},
		},
		{name: "provider", req: CallRequest{Token: "pkg:index:Comp/m", Provider: provRef},
			want: func(r *pulumirpc.ResourceCallRequest) { r.Provider = providerRef }},
		{name: "version", req: CallRequest{Token: "pkg:index:Comp/m", Version: "2.0.0"},
			want: func(r *pulumirpc.ResourceCallRequest) { r.Version = "2.0.0" }},
		{name: "plugin download URL", req: CallRequest{Token: "pkg:index:Comp/m", PluginDownloadURL: "u"},
			want: func(r *pulumirpc.ResourceCallRequest) { r.PluginDownloadURL = "u" }},
		{name: "package ref", req: CallRequest{Token: "pkg:index:Comp/m", PackageRef: "ref-1"}, features: Features{Parameterization: true},
			want: func(r *pulumirpc.ResourceCallRequest) { r.PackageRef = "ref-1" }},
		{name: "package ref without parameterization", req: CallRequest{Token: "pkg:index:Comp/m", PackageRef: "ref-1"}, wantErr: true},
		{name: "stack trace handle", req: CallRequest{Token: "pkg:index:Comp/m", ParentStackTraceHandle: "h"},
			want: func(r *pulumirpc.ResourceCallRequest) { r.ParentStackTraceHandle = "h" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := toRPCCallRequest(tt.req, tt.features)
			if tt.wantErr {
				if err == nil {
					t.Fatal("want error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w := base()
			tt.want(w)
			assertProto(t, got, w)
		})
	}
}

func TestFromRPCCallResponse(t *testing.T) {
	t.Parallel()
	got, err := fromRPCCallResponse("m", nil)
	if err != nil || got.Return.Len() != 0 || got.ReturnDependencies != nil {
		t.Errorf("nil: %+v %v", got, err)
	}
	got, err = fromRPCCallResponse("m", &pulumirpc.CallResponse{})
	if err != nil || got.Return.Len() != 0 || got.ReturnDependencies != nil {
		t.Errorf("zero: %+v %v", got, err)
	}
	got, err = fromRPCCallResponse("m", &pulumirpc.CallResponse{
		Return: mustStruct(t, map[string]any{"res": unknownStr}),
		ReturnDependencies: map[string]*pulumirpc.CallResponse_ReturnDependencies{
			"res": {Urns: []string{customURN}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	assertMap(t, got.Return, pmap(map[string]property.Value{"res": property.New(property.Computed)}))
	if !slices.Equal(got.ReturnDependencies["res"], []urn.URN{customURN}) {
		t.Errorf("return deps %v", got.ReturnDependencies)
	}
	_, err = fromRPCCallResponse("m", &pulumirpc.CallResponse{Failures: []*pulumirpc.CheckFailure{{Property: "p", Reason: "r"}}})
	var fe *FailuresError
	if !errors.As(err, &fe) || fe.Failures[0] != (diag.CheckFailure{Property: "p", Reason: "r"}) {
		t.Errorf("failures: %v", err)
	}
}

func TestFeaturesFromList(t *testing.T) {
	t.Parallel()
	if got := featuresFromList(nil); got != (Features{}) {
		t.Errorf("nil: %+v", got)
	}
	all := make([]pulumirpc.ResourceMonitorFeature, 0, 17)
	for i := range 17 {
		all = append(all, pulumirpc.ResourceMonitorFeature(i))
	}
	want := Features{
		Secrets: true, ResourceReferences: true, OutputValues: true, AliasSpecs: true, ReplacementTrigger: true,
		DeletedWith: true, ReplaceWith: true, Transforms: true, InvokeTransforms: true, Parameterization: true,
		ResourceHooks: true, ErrorHooks: true, SendsOptionsToHooks: true, ByteString: true, InvokeDependsOn: true,
		InvokeParent: true, StateMigrations: true,
	}
	if got := featuresFromList(all); got != want {
		t.Errorf("all: got %+v", got)
	}
	got := featuresFromList([]pulumirpc.ResourceMonitorFeature{
		pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_OUTPUT_VALUES, 99,
	})
	if got != (Features{OutputValues: true}) {
		t.Errorf("one: got %+v", got)
	}
}

func TestLegacyFeatures(t *testing.T) {
	t.Parallel()
	for id, set := range legacyFeatures {
		var f Features
		set(&f)
		if f == (Features{}) {
			t.Errorf("%s sets nothing", id)
		}
	}
	if len(legacyFeatures) != 11 {
		t.Errorf("%d legacy ids, want 11", len(legacyFeatures))
	}
}

func TestFromRPCDeploymentInfo(t *testing.T) {
	t.Parallel()
	if got := fromRPCDeploymentInfo(nil); got.Project != "" || got.Config != nil {
		t.Errorf("nil: %+v", got)
	}
	got := fromRPCDeploymentInfo(&pulumirpc.DeploymentInfo{
		Project: "p", Stack: "s", Organization: "o", Config: map[string]string{"a:b": "c"},
		ConfigSecretKeys: []string{"a:b"}, DryRun: true, Parallel: 4,
	})
	if got.Project != "p" || got.Stack != "s" || got.Organization != "o" || got.Config["a:b"] != "c" ||
		!slices.Equal(got.ConfigSecretKeys, []string{"a:b"}) || !got.DryRun || got.Parallel != 4 {
		t.Errorf("got %+v", got)
	}
}

func TestToRPCLogRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		req     LogRequest
		want    *pulumirpc.LogRequest
		wantErr bool
	}{
		{name: "zero", req: LogRequest{}, want: &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_DEBUG}},
		{name: "info", req: LogRequest{Severity: SeverityInfo}, want: &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_INFO}},
		{name: "warning", req: LogRequest{Severity: SeverityWarning}, want: &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_WARNING}},
		{name: "error", req: LogRequest{Severity: SeverityError}, want: &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_ERROR}},
		{name: "bad severity", req: LogRequest{Severity: 9}, wantErr: true},
		{name: "message made valid UTF-8", req: LogRequest{Message: "a\xffb"}, want: &pulumirpc.LogRequest{Message: "a\uFFFDb"}},
		{name: "urn", req: LogRequest{URN: compURN}, want: &pulumirpc.LogRequest{Urn: compURN}},
		{name: "stream id", req: LogRequest{StreamID: 7}, want: &pulumirpc.LogRequest{StreamId: 7}},
		{name: "ephemeral", req: LogRequest{Ephemeral: true}, want: &pulumirpc.LogRequest{Ephemeral: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := toRPCLogRequest(tt.req)
			if tt.wantErr {
				if err == nil {
					t.Fatal("want error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			assertProto(t, got, tt.want)
		})
	}
}

func TestRPCErrorMessage(t *testing.T) {
	t.Parallel()
	inner := &FailuresError{Token: "f", Failures: []diag.CheckFailure{{Reason: "r"}}}
	err := wrapErr("invoke", "f", inner)
	if err.Error() != "invoke f: provider reported failures: r" {
		t.Errorf("message %q", err.Error())
	}
	var fe *FailuresError
	if !errors.As(err, &fe) {
		t.Error("FailuresError not reachable through RPCError")
	}
	if wrapErr("x", "y", nil) != nil {
		t.Error("wrapErr(nil) != nil")
	}
}

// deepStruct is {"a": {"a": ... {"a": "x"}}}, n objects deep.
func deepStruct(n int) *structpb.Struct {
	s := &structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewStringValue("x")}}
	for range n - 1 {
		s = &structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewStructValue(s)}}
	}
	return s
}
