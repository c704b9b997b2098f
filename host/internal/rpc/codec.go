package rpc

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/polyhost/polyhost/host/internal/gctune"
	"github.com/polyhost/polyhost/internal/wire"
)

// crudCodec is the plugin server's gRPC codec. The values of Check and
// Create, the two RPCs the engine sends for each new resource, are read
// from the request bytes and written as answer bytes (internal/wire),
// without structpb trees; so are Diff's requests, sent for each existing
// resource, and Construct's inputs. Requests are read from the frames gRPC
// received them in, and a large string of an answer is sent from its own
// memory, so that a large value is copied once (docs/performance.md).
// Other fields and messages go through proto. On the wire nothing
// changes. Serve installs it with registerServer; the methods of
// server, which NewServer returns, keep the proto path.
type crudCodec struct{}

var protoCodec = encoding.GetCodecV2("proto")

func (crudCodec) Name() string { return "proto" }

func (crudCodec) Marshal(v any) (mem.BufferSlice, error) {
	if a, ok := v.(*rawAnswer); ok {
		out := make(mem.BufferSlice, len(a.segs))
		for i, seg := range a.segs {
			out[i] = mem.SliceBuffer(seg)
		}
		return out, nil
	}
	return protoCodec.Marshal(v)
}

// Unmarshal reads a rawRequest from the pieces gRPC received it in, so
// that a large request is not first copied into one buffer (see
// wire.ReadMessageStructs).
func (crudCodec) Unmarshal(data mem.BufferSlice, v any) error {
	r, ok := v.(rawRequest)
	if !ok {
		return protoCodec.Unmarshal(data, v)
	}
	bufs := r.pieces(len(data))
	n := 0
	for _, d := range data {
		bufs = append(bufs, d.ReadOnlyData())
		n += d.Len()
	}
	gctune.BeforeLargeRequest(n)
	err := r.decode(bufs)
	clear(bufs) // gRPC reuses them
	return err
}

// rawAnswer is a response's protobuf encoding, in segments: a large
// string's is the string's own memory (wire.AppendMapFieldSegments). one
// holds the only segment of most.
type rawAnswer struct {
	segs [][]byte
	one  [1][]byte
}

// rawRequest is a request read by crudCodec from the pieces gRPC received
// it in. decode must not keep them.
type rawRequest interface {
	decode(bufs [][]byte) error
	pieces(n int) [][]byte
}

// frames holds the list of a request's pieces, in the request, which is
// allocated anyway: most come in one.
type frames struct{ one [1][]byte }

// pieces is an empty list with room for n pieces.
func (f *frames) pieces(n int) [][]byte {
	if n <= 1 {
		return f.one[:0]
	}
	return make([][]byte, 0, n)
}

// protoDecode reads message m from pieces bufs with proto.
func protoDecode(bufs [][]byte, m proto.Message) error {
	if len(bufs) == 1 {
		return proto.Unmarshal(bufs[0], m)
	}
	return proto.Unmarshal(slices.Concat(bufs...), m)
}

// fieldNum is the number of message m's field name.
func fieldNum(m proto.Message, name protoreflect.Name) protowire.Number {
	return m.ProtoReflect().Descriptor().Fields().ByName(name).Number()
}

var (
	checkOlds       = fieldNum(&pulumirpc.CheckRequest{}, "olds")
	checkNews       = fieldNum(&pulumirpc.CheckRequest{}, "news")
	checkInputs     = fieldNum(&pulumirpc.CheckResponse{}, "inputs")
	createInputs    = fieldNum(&pulumirpc.CreateRequest{}, "properties")
	createOutputs   = fieldNum(&pulumirpc.CreateResponse{}, "properties")
	diffOlds        = fieldNum(&pulumirpc.DiffRequest{}, "olds")
	diffOldInputs   = fieldNum(&pulumirpc.DiffRequest{}, "old_inputs")
	diffNews        = fieldNum(&pulumirpc.DiffRequest{}, "news")
	crudReadOption  = crudValues
	constructInputs = fieldNum(&pulumirpc.ConstructRequest{}, "inputs")
)

// restBuffers hold the fields splitStructs leaves to proto, which copies
// what it keeps.
var restBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// splitStructs reads message bufs's google.protobuf.Struct fields nums
// (at most 3) as crudFromWire would and unmarshals the other fields into
// rest with proto. ok is false where a Struct needs proto's reading (see
// wire.ReadMessageStructs) or a field of nums comes more than once: read
// bufs with proto then.
func splitStructs(bufs [][]byte, rest proto.Message, o wire.UnmarshalOptions, nums ...protowire.Number) (s wire.MessageStructs, ok bool, err error) {
	buf := restBuffers.Get().(*[]byte)
	defer func() {
		*buf = (*buf)[:0]
		restBuffers.Put(buf)
	}()
	s, other, ok := wire.ReadMessageStructs(bufs, *buf, o, nums, nil)
	*buf = other
	if !ok {
		return s, false, nil
	}
	return s, true, proto.Unmarshal(other, rest)
}

// checkIn is a CheckRequest as crudCodec reads it: raw says olds and news
// were read from the bytes, and req holds the other fields; otherwise req
// is the whole request, read by proto.
type checkIn struct {
	frames
	req        pulumirpc.CheckRequest
	olds, news property.Map
	raw        bool
}

func (c *checkIn) decode(b [][]byte) error {
	s, ok, err := splitStructs(b, &c.req, crudReadOption, checkOlds, checkNews)
	if !ok {
		return protoDecode(b, &c.req)
	}
	c.olds, c.news, c.raw = s.Maps[0], s.Maps[1], true
	return err
}

// createIn is a CreateRequest as crudCodec reads it, as checkIn.
type createIn struct {
	frames
	req    pulumirpc.CreateRequest
	inputs property.Map
	raw    bool
}

func (c *createIn) decode(b [][]byte) error {
	s, ok, err := splitStructs(b, &c.req, crudReadOption, createInputs)
	if !ok {
		return protoDecode(b, &c.req)
	}
	c.inputs, c.raw = s.Maps[0], true
	return err
}

// diffIn is a DiffRequest as crudCodec reads it, as checkIn; oldInputs
// are the old outputs where the request has none, as Diff reads them.
type diffIn struct {
	frames
	req                         pulumirpc.DiffRequest
	oldOutputs, oldInputs, news property.Map
	raw                         bool
}

func (c *diffIn) decode(b [][]byte) error {
	s, ok, err := splitStructs(b, &c.req, crudReadOption, diffOlds, diffOldInputs, diffNews)
	if !ok {
		return protoDecode(b, &c.req)
	}
	c.oldOutputs, c.oldInputs, c.news, c.raw = s.Maps[0], s.Maps[1], s.Maps[2], true
	if !s.Seen[1] {
		c.oldInputs = c.oldOutputs
	}
	return err
}

func (s *server) rawDiff(ctx context.Context, in *diffIn) (any, error) {
	if !in.raw {
		return s.Diff(ctx, &in.req)
	}
	return s.diff(ctx, diffRequest(&in.req, in.oldOutputs, in.oldInputs, in.news))
}

func (s *server) rawCheck(ctx context.Context, in *checkIn) (any, error) {
	if !in.raw {
		return s.Check(ctx, &in.req)
	}
	resp, err := s.serving().Check(ctx, checkRequest(&in.req, in.olds, in.news))
	if err != nil {
		return nil, toStatus(err)
	}
	b, err := proto.Marshal(&pulumirpc.CheckResponse{Failures: ToCheckFailures(resp.Failures)})
	if err != nil {
		return nil, err
	}
	return s.appendValues(b, checkInputs, resp.Inputs)
}

func (s *server) rawCreate(ctx context.Context, in *createIn) (any, error) {
	if !in.raw {
		return s.Create(ctx, &in.req)
	}
	creq := createRequest(&in.req, in.inputs)
	resp, err := s.serving().Create(ctx, creq, in.req.GetPreview())
	if err != nil {
		return nil, s.crudStatus(err, creq.Inputs)
	}
	b, err := proto.Marshal(&pulumirpc.CreateResponse{Id: string(resp.ID)})
	if err != nil {
		return nil, err
	}
	return s.appendValues(b, createOutputs, resp.Outputs)
}

// appendValues appends m to the encoded response b as its Struct field
// num, as toWire and proto would write it.
func (s *server) appendValues(b []byte, num protowire.Number, m property.Map) (any, error) {
	a := &rawAnswer{}
	var err error
	a.segs, err = wire.AppendMapFieldSegments(a.one[:0], b, num, m, wire.MarshalOptions{Secrets: true, Resources: true, ByteStrings: s.byteStrings.Load()})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// rawHandler serves method with call, on a request crudCodec reads.
func rawHandler[T any, PT interface {
	*T
	rawRequest
}](method string, call func(*server, context.Context, PT) (any, error)) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		in := PT(new(T))
		s := srv.(*server)
		if p, ok := any(in).(interface{ prepare(*server) }); ok {
			p.prepare(s)
		}
		if err := dec(in); err != nil {
			return nil, err
		}
		if interceptor == nil {
			return call(s, ctx, in)
		}
		info := &grpc.UnaryServerInfo{Server: srv, FullMethod: method}
		return interceptor(ctx, in, info, func(ctx context.Context, req any) (any, error) {
			return call(s, ctx, req.(PT))
		})
	}
}

// registerServer registers s on g with Check, Create and Diff on
// crudCodec's path; g must have been made with crudServerOptions.
func registerServer(g *grpc.Server, s *server) {
	desc := pulumirpc.ResourceProvider_ServiceDesc
	desc.Methods = slices.Clone(desc.Methods)
	replaced := 0
	for i, m := range desc.Methods {
		switch m.MethodName {
		case "Check":
			desc.Methods[i].Handler = rawHandler(pulumirpc.ResourceProvider_Check_FullMethodName, (*server).rawCheck)
			replaced++
		case "Create":
			desc.Methods[i].Handler = rawHandler(pulumirpc.ResourceProvider_Create_FullMethodName, (*server).rawCreate)
			replaced++
		case "Diff":
			desc.Methods[i].Handler = rawHandler(pulumirpc.ResourceProvider_Diff_FullMethodName, (*server).rawDiff)
			replaced++
		case "Construct":
			desc.Methods[i].Handler = rawHandler(pulumirpc.ResourceProvider_Construct_FullMethodName, (*server).rawConstruct)
			replaced++
		}
	}
	if replaced != 4 {
		panic(fmt.Sprintf("host: ResourceProvider has %d of the methods Check, Create, Diff and Construct", replaced))
	}
	g.RegisterService(&desc, s)
}

// crudServerOptions are the options registerServer's server needs.
func crudServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.ForceServerCodecV2(crudCodec{})}
}
