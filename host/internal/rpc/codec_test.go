package rpc

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
)

// codecSchema is the schema of codecThing's package.
//
//go:embed testdata/schemas/codec.yaml
var codecSchema string

// codecThing echoes its inputs as outputs, with a reference and an
// unknown in a preview; a name "fail" fails, "partial" fails partly.
type codecThing struct{}

func (codecThing) Create(_ context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	out := req.Inputs.Set("ref", property.New(property.ResourceReference{URN: urn.URN("urn:pulumi:dev::p::test:index:Thing::other"), ID: property.New("i-2")}))
	str := func(k string) string {
		if v := req.Inputs.Get(k); v.IsString() {
			return v.AsString()
		}
		return ""
	}
	switch str("name") {
	case "fail":
		return custom.CreateResponse{}, errors.New("no room for " + str("password"))
	case "partial":
		return custom.CreateResponse{}, &custom.PartialError{ID: "i-1", Outputs: out, Err: errors.New("half made")}
	case "unknown":
		out = out.Set("size", property.New(property.Computed))
	}
	return custom.CreateResponse{ID: "i-1", Outputs: out}, nil
}
func (codecThing) Read(context.Context, custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{}, nil
}
func (codecThing) Update(context.Context, custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{}, nil
}
func (codecThing) Delete(context.Context, custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

func codecStruct(t *testing.T, m property.Map) *structpb.Struct {
	t.Helper()
	s, err := wire.MarshalMap(m, wire.MarshalOptions{Secrets: true, Resources: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// answer is what a response or error looks like to the engine.
func answer(t *testing.T, resp proto.Message, err error) string {
	t.Helper()
	if err != nil {
		return "error: " + err.Error()
	}
	b, merr := proto.MarshalOptions{Deterministic: true}.Marshal(resp)
	if merr != nil {
		t.Fatal(merr)
	}
	return fmt.Sprintf("%x", b)
}

// rawAnswerOf decodes a raw path's answer into resp, as the engine would;
// where the request went to proto, the answer is proto's message.
func rawAnswerOf(t *testing.T, got any, err error, resp proto.Message) string {
	t.Helper()
	if err != nil {
		return "error: " + err.Error()
	}
	if m, ok := got.(proto.Message); ok {
		return answer(t, m, nil)
	}
	if perr := proto.Unmarshal(slices.Concat(got.(*rawAnswer).segs...), resp); perr != nil {
		t.Fatalf("the raw answer %x is not a %T: %v", got, resp, perr)
	}
	return answer(t, resp, nil)
}

// TestCrudCodecMatchesProto checks that Check and Create on crudCodec's
// path answer exactly as the proto path does: the same response bytes
// (deterministic) or the same error, for plain, secret, unknown and
// reference values, failures, errors, partial creates, and encodings
// wire.ReadMapBytes leaves to proto.
func TestCrudCodecMatchesProto(t *testing.T) {
	t.Parallel()
	p := core.New("test")
	if err := p.SetSchema([]byte(codecSchema)); err != nil {
		t.Fatal(err)
	}
	if err := p.AddResource("test:index:Thing", codecThing{}, core.NoSignature); err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	s := newServer(p)
	ctx := context.Background()
	const u = "urn:pulumi:dev::p::test:index:Thing::t"
	inputs := func(name string, extra ...property.Value) property.Map {
		m := map[string]property.Value{"name": property.New(name), "password": property.New("hunter2").WithSecret(true)}
		if len(extra) > 0 {
			m["size"] = extra[0]
		}
		return property.NewMap(m)
	}
	// Encodings: proto's own; a Struct field twice (proto merges them);
	// a string that is not UTF-8 (proto refuses); an unknown field.
	encodings := map[string]func([]byte, protowire.Number) []byte{
		"proto": func(b []byte, _ protowire.Number) []byte { return b },
		"struct twice": func(b []byte, num protowire.Number) []byte {
			extra, _ := proto.Marshal(codecStruct(t, property.NewMap(map[string]property.Value{"size": property.New(7.0)})))
			b = protowire.AppendTag(b, num, protowire.BytesType)
			return protowire.AppendBytes(b, extra)
		},
		"bad utf8": func(b []byte, num protowire.Number) []byte {
			var entry []byte
			entry = protowire.AppendTag(entry, 1, protowire.BytesType)
			entry = protowire.AppendString(entry, "name")
			entry = protowire.AppendTag(entry, 2, protowire.BytesType)
			entry = protowire.AppendBytes(entry, protowire.AppendString(protowire.AppendTag(nil, 3, protowire.BytesType), "\xff"))
			st := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), entry)
			return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), st)
		},
		"unknown field": func(b []byte, _ protowire.Number) []byte {
			return protowire.AppendString(protowire.AppendTag(b, 99, protowire.BytesType), "later")
		},
	}
	for _, c := range []struct {
		name       string
		olds, news property.Map
		preview    bool
	}{
		{name: "plain", news: inputs("a", property.New(5.0))},
		{name: "default and secret", olds: inputs("a"), news: inputs("b")},
		{name: "failure", news: inputs("a", property.New("big"))},
		{name: "unknown", news: inputs("unknown", property.New(property.Computed)), preview: true},
		{name: "empty"},
		{name: "fail", news: inputs("fail")},
		{name: "partial", news: inputs("partial")},
	} {
		for enc, mangle := range encodings {
			t.Run(c.name+"/"+enc, func(t *testing.T) {
				check := &pulumirpc.CheckRequest{Urn: u, Name: "t", Type: "test:index:Thing", RandomSeed: []byte{1, 2},
					Olds: codecStruct(t, c.olds), News: codecStruct(t, c.news)}
				b, err := proto.Marshal(check)
				if err != nil {
					t.Fatal(err)
				}
				b = mangle(b, checkNews)
				var viaProto pulumirpc.CheckRequest
				perr := proto.Unmarshal(b, &viaProto)
				var in checkIn
				rerr := in.decode(pieces(b, 7))
				if fmt.Sprint(perr) != fmt.Sprint(rerr) {
					t.Fatalf("decoding Check: proto %v, raw %v", perr, rerr)
				}
				if perr != nil {
					return
				}
				want := func() string { r, err := s.Check(ctx, &viaProto); return answer(t, r, err) }()
				got, err := s.rawCheck(ctx, &in)
				if g := rawAnswerOf(t, got, err, &pulumirpc.CheckResponse{}); g != want {
					t.Errorf("Check:\n raw: %s\nproto: %s", g, want)
				}

				create := &pulumirpc.CreateRequest{Urn: u, Name: "t", Type: "test:index:Thing", Timeout: 30,
					Preview: c.preview, Properties: codecStruct(t, c.news)}
				if b, err = proto.Marshal(create); err != nil {
					t.Fatal(err)
				}
				b = mangle(b, createInputs)
				var viaProtoCreate pulumirpc.CreateRequest
				perr = proto.Unmarshal(b, &viaProtoCreate)
				var cin createIn
				if rerr := cin.decode(pieces(b, 5)); fmt.Sprint(perr) != fmt.Sprint(rerr) {
					t.Fatalf("decoding Create: proto %v, raw %v", perr, rerr)
				}
				if perr != nil {
					return
				}
				want = func() string { r, err := s.Create(ctx, &viaProtoCreate); return answer(t, r, err) }()
				got, err = s.rawCreate(ctx, &cin)
				if g := rawAnswerOf(t, got, err, &pulumirpc.CreateResponse{}); g != want {
					t.Errorf("Create:\n raw: %s\nproto: %s", g, want)
				}
				for _, oldInputs := range []*structpb.Struct{nil, codecStruct(t, c.olds)} {
					diff := &pulumirpc.DiffRequest{Urn: u, Name: "t", Type: "test:index:Thing", Id: "i-1",
						Olds: codecStruct(t, c.olds.Set("ref", property.New("r"))), OldInputs: oldInputs, News: codecStruct(t, c.news),
						IgnoreChanges: []string{"size"}}
					if b, err = proto.Marshal(diff); err != nil {
						t.Fatal(err)
					}
					b = mangle(b, diffNews)
					var viaProtoDiff pulumirpc.DiffRequest
					perr = proto.Unmarshal(b, &viaProtoDiff)
					var din diffIn
					if rerr := din.decode(pieces(b, 1<<20)); fmt.Sprint(perr) != fmt.Sprint(rerr) {
						t.Fatalf("decoding Diff: proto %v, raw %v", perr, rerr)
					}
					if perr != nil {
						return
					}
					sorted := func(r *pulumirpc.DiffResponse, err error) string {
						if r != nil {
							slices.Sort(r.Diffs)
						}
						return answer(t, r, err)
					}
					want = sorted(s.Diff(ctx, &viaProtoDiff))
					got, err := s.rawDiff(ctx, &din)
					g := "error: " + fmt.Sprint(err)
					if err == nil {
						g = sorted(got.(*pulumirpc.DiffResponse), nil)
					}
					if g != want {
						t.Errorf("Diff (old inputs %v):\n raw: %s\nproto: %s", oldInputs != nil, g, want)
					}
					if enc == "proto" && !din.raw {
						t.Error("proto's own encoding of a Diff went to proto")
					}
				}
				if enc == "proto" && (!in.raw || !cin.raw) {
					t.Errorf("proto's own encoding went to proto (check raw=%v, create raw=%v)", in.raw, cin.raw)
				}
			})
		}
	}
}

// pieces splits b into pieces of size bytes, as gRPC hands a codec a
// message it received in frames.
func pieces(b []byte, size int) [][]byte {
	var out [][]byte
	for len(b) > size {
		out = append(out, b[:size])
		b = b[size:]
	}
	return append(out, b)
}

// A Construct read by crudCodec gives the request FromConstructRequest
// gives, without a structpb copy of its inputs in the message, read whole
// or in pieces; what the raw path cannot read goes to proto.
func TestConstructCodecMatchesProto(t *testing.T) {
	t.Parallel()
	inputs := property.NewMap(map[string]property.Value{
		"title":   property.New("hello"),
		"secret":  property.New(strings.Repeat("s", 70<<10)).WithSecret(true),
		"content": property.New(strings.Repeat("c", 70<<10)),
		"pages":   property.New([]property.Value{property.New("a"), property.New(property.Computed)}),
		"ref":     property.New(property.ResourceReference{URN: "urn:pulumi:dev::p::test:index:Thing::t", ID: property.New("i-1")}),
		"dep":     property.New("x").WithDependencies([]urn.URN{"urn:pulumi:dev::p::test:index:Thing::u"}),
	})
	st, err := wire.MarshalMap(inputs, wire.MarshalOptions{Secrets: true, Resources: true, OutputValues: true})
	if err != nil {
		t.Fatal(err)
	}
	req := &pulumirpc.ConstructRequest{Project: "p", Stack: "dev", Type: "test:index:Site", Name: "s", Parent: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
		Inputs: st, InputDependencies: map[string]*pulumirpc.ConstructRequest_PropertyDependencies{"title": {Urns: []string{"urn:pulumi:dev::p::test:index:Thing::v"}}},
		Config: map[string]string{"p:a": "b"}, ConfigSecretKeys: []string{"p:a"}, MonitorEndpoint: "127.0.0.1:1"}
	b, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	want, err := FromConstructRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{3, 16 << 10, len(b)} {
		var in constructIn
		if err := in.decode(pieces(b, size)); err != nil {
			t.Fatal(err)
		}
		if !in.raw || in.req.Inputs != nil {
			t.Fatalf("pieces of %d: raw %v, inputs left in the message: %v", size, in.raw, in.req.Inputs != nil)
		}
		got, err := constructRequest(&in.req, in.inputs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pieces of %d:\n got: %#v\nwant: %#v", size, got, want)
		}
	}
	// A bridged component reads the whole request; so does proto where
	// the inputs are twice.
	in := constructIn{bridged: func(token string) bool { return token == "test:index:Site" }}
	if err := in.decode(pieces(b, 100)); err != nil || in.raw || !proto.Equal(&in.req, req) {
		t.Fatalf("bridged: raw %v, err %v, same request %v", in.raw, err, proto.Equal(&in.req, req))
	}
	twice := protowire.AppendBytes(protowire.AppendTag(slices.Clone(b), constructInputs, protowire.BytesType), nil)
	in = constructIn{}
	if err := in.decode(pieces(twice, 100)); err != nil || in.raw {
		t.Fatalf("inputs twice: raw %v, err %v", in.raw, err)
	}
}

// A large value is copied once on crudCodec's path: out of the request's
// frames into the input, which Create's answer sends from the input's own
// memory, plain or secret; the answer is still the proto path's.
func TestLargeValuesAreNotCopiedIntoAnswers(t *testing.T) {
	t.Parallel()
	p := core.New("test")
	if err := p.SetSchema([]byte(codecSchema)); err != nil {
		t.Fatal(err)
	}
	if err := p.AddResource("test:index:Thing", codecThing{}, core.NoSignature); err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	s := newServer(p)
	ctx := context.Background()
	inputs := property.NewMap(map[string]property.Value{
		"name":     property.New(strings.Repeat("n", 100<<10)),
		"password": property.New(strings.Repeat("p", 100<<10)).WithSecret(true),
	})
	create := &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::p::test:index:Thing::t", Name: "t", Type: "test:index:Thing", Properties: codecStruct(t, inputs)}
	b, err := proto.Marshal(create)
	if err != nil {
		t.Fatal(err)
	}
	var in createIn
	if err := in.decode(pieces(b, 16<<10)); err != nil || !in.raw {
		t.Fatalf("decode: raw %v, %v", in.raw, err)
	}
	got, err := s.rawCreate(ctx, &in)
	if err != nil {
		t.Fatal(err)
	}
	segs := got.(*rawAnswer).segs
	for _, k := range []string{"name", "password"} {
		value := in.inputs.Get(k).AsString()
		shared := false
		for _, seg := range segs {
			shared = shared || len(seg) == len(value) && unsafe.SliceData(seg) == unsafe.StringData(value)
		}
		if !shared {
			t.Errorf("the answer copied %s (%d segments)", k, len(segs))
		}
	}
	want, err := s.Create(ctx, create)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := rawAnswerOf(t, got, nil, &pulumirpc.CreateResponse{}), answer(t, want, nil); g != w {
		t.Errorf("raw answer differs from proto's")
	}
}
