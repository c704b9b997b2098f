package rpc

import (
	"context"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/internal/wire"
)

// The CRUD calls of custom resources. Serve reads the values of Check,
// Create and Diff from the request bytes (codec.go), then takes the same
// path; the converters named after lower-case messages (checkRequest, ...)
// map the other fields, for both.

func (s *server) Check(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	creq, err := FromCheckRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Check(ctx, creq)
	if err != nil {
		return nil, toStatus(err)
	}
	return ToCheckResponse(resp, s.byteStrings.Load())
}

func (s *server) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	dreq, err := FromDiffRequest(req)
	if err != nil {
		return nil, err
	}
	return s.diff(ctx, dreq)
}

func (s *server) diff(ctx context.Context, req custom.DiffRequest) (*pulumirpc.DiffResponse, error) {
	resp, err := s.serving().Diff(ctx, req)
	if err != nil {
		return nil, toStatus(err)
	}
	return ToDiffResponse(resp), nil
}

func (s *server) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	creq, preview, err := FromCreateRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Create(ctx, creq, preview)
	if err != nil {
		return nil, s.crudStatus(err, creq.Inputs)
	}
	return ToCreateResponse(resp, s.byteStrings.Load())
}

func (s *server) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	rreq, err := FromReadRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Read(ctx, rreq)
	if err != nil {
		return nil, s.crudStatus(err, rreq.Inputs)
	}
	return ToReadResponse(resp, s.byteStrings.Load())
}

func (s *server) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	ureq, preview, err := FromUpdateRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Update(ctx, ureq, preview)
	if err != nil {
		return nil, s.crudStatus(err, ureq.Inputs)
	}
	return ToUpdateResponse(resp, s.byteStrings.Load())
}

func (s *server) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	dreq, err := FromDeleteRequest(req)
	if err != nil {
		return nil, err
	}
	if err := s.serving().Delete(ctx, dreq); err != nil {
		return nil, s.crudStatus(err, dreq.Inputs)
	}
	return &emptypb.Empty{}, nil
}

// crudValuesOf reads the values of a CRUD request, naming which they are
// and of which resource where they do not decode.
func crudValuesOf(u, what string, s *structpb.Struct) (property.Map, error) {
	m, err := crudFromWire(s)
	if err != nil {
		return property.Map{}, badInput(what+" of "+u, err)
	}
	return m, nil
}

func resourceInfo(u, name, typ string) custom.ResourceInfo {
	return custom.ResourceInfo{URN: urn.URN(u), Name: name, Type: typ}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// FromCheckRequest reads a Check off the wire.
func FromCheckRequest(req *pulumirpc.CheckRequest) (custom.CheckRequest, error) {
	olds, err := crudValuesOf(req.GetUrn(), "old inputs", req.GetOlds())
	if err != nil {
		return custom.CheckRequest{}, err
	}
	news, err := crudValuesOf(req.GetUrn(), "inputs", req.GetNews())
	if err != nil {
		return custom.CheckRequest{}, err
	}
	return checkRequest(req, olds, news), nil
}

// checkRequest is a Check with its values read.
func checkRequest(req *pulumirpc.CheckRequest, olds, news property.Map) custom.CheckRequest {
	out := custom.CheckRequest{ResourceInfo: resourceInfo(req.GetUrn(), req.GetName(), req.GetType()),
		OldInputs: olds, Inputs: news, RandomSeed: req.GetRandomSeed()}
	if a := req.GetAutonaming(); a != nil {
		out.Autonaming = &custom.Autonaming{ProposedName: a.GetProposedName()}
		switch a.GetMode() {
		case pulumirpc.CheckRequest_AutonamingOptions_ENFORCE:
			out.Autonaming.Mode = custom.AutonamingEnforce
		case pulumirpc.CheckRequest_AutonamingOptions_DISABLE:
			out.Autonaming.Mode = custom.AutonamingDisable
		}
	}
	return out
}

// ToCheckRequest writes a Check as the engine sends it.
func ToCheckRequest(r custom.CheckRequest) (*pulumirpc.CheckRequest, error) {
	olds, news, err := marshal2(r.OldInputs, r.Inputs)
	if err != nil {
		return nil, err
	}
	out := &pulumirpc.CheckRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Olds: olds, News: news, RandomSeed: r.RandomSeed}
	if a := r.Autonaming; a != nil {
		out.Autonaming = &pulumirpc.CheckRequest_AutonamingOptions{ProposedName: a.ProposedName}
		switch a.Mode {
		case custom.AutonamingEnforce:
			out.Autonaming.Mode = pulumirpc.CheckRequest_AutonamingOptions_ENFORCE
		case custom.AutonamingDisable:
			out.Autonaming.Mode = pulumirpc.CheckRequest_AutonamingOptions_DISABLE
		}
	}
	return out, nil
}

// ToCheckResponse writes what Check answers.
func ToCheckResponse(r custom.CheckResponse, byteStrings bool) (*pulumirpc.CheckResponse, error) {
	inputs, err := marshal(r.Inputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: ToCheckFailures(r.Failures)}, nil
}

// FromCheckResponse reads what Check answered.
func FromCheckResponse(r *pulumirpc.CheckResponse) (custom.CheckResponse, error) {
	inputs, err := wire.UnmarshalMap(r.GetInputs(), answerValues)
	return custom.CheckResponse{Inputs: inputs, Failures: FromCheckFailures(r.GetFailures())}, err
}

// FromDiffRequest reads a Diff off the wire; without old inputs, the old
// state stands for them.
func FromDiffRequest(req *pulumirpc.DiffRequest) (custom.DiffRequest, error) {
	oldOutputs, err := crudValuesOf(req.GetUrn(), "old state", req.GetOlds())
	if err != nil {
		return custom.DiffRequest{}, err
	}
	oldInputs := oldOutputs
	if req.GetOldInputs() != nil {
		if oldInputs, err = crudValuesOf(req.GetUrn(), "old inputs", req.GetOldInputs()); err != nil {
			return custom.DiffRequest{}, err
		}
	}
	news, err := crudValuesOf(req.GetUrn(), "inputs", req.GetNews())
	if err != nil {
		return custom.DiffRequest{}, err
	}
	return diffRequest(req, oldOutputs, oldInputs, news), nil
}

// diffRequest is a Diff with its values read.
func diffRequest(req *pulumirpc.DiffRequest, oldOutputs, oldInputs, news property.Map) custom.DiffRequest {
	return custom.DiffRequest{ResourceInfo: resourceInfo(req.GetUrn(), req.GetName(), req.GetType()),
		ID: resource.ID(req.GetId()), OldInputs: oldInputs, OldOutputs: oldOutputs, Inputs: news,
		IgnoreChanges: req.GetIgnoreChanges()}
}

// ToDiffRequest writes a Diff as the engine sends it.
func ToDiffRequest(r custom.DiffRequest) (*pulumirpc.DiffRequest, error) {
	olds, oldInputs, err := marshal2(r.OldOutputs, r.OldInputs)
	if err != nil {
		return nil, err
	}
	news, err := marshal(r.Inputs, false)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.DiffRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Olds: olds, OldInputs: oldInputs, News: news, IgnoreChanges: r.IgnoreChanges}, nil
}

// ToDiffResponse writes what Diff answers, each change detailed.
func ToDiffResponse(d custom.DiffResponse) *pulumirpc.DiffResponse {
	resp := &pulumirpc.DiffResponse{
		Changes:             pulumirpc.DiffResponse_DIFF_NONE,
		Replaces:            d.Replaces,
		DeleteBeforeReplace: d.DeleteBeforeReplace,
		HasDetailedDiff:     true,
		DetailedDiff:        map[string]*pulumirpc.PropertyDiff{},
	}
	if d.HasChanges {
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	for path, kind := range d.Changes {
		resp.DetailedDiff[path] = &pulumirpc.PropertyDiff{Kind: pulumirpc.PropertyDiff_Kind(kind), InputDiff: true}
		resp.Diffs = append(resp.Diffs, path)
	}
	return resp
}

// FromDiffResponse reads what Diff answered.
func FromDiffResponse(r *pulumirpc.DiffResponse) custom.DiffResponse {
	out := custom.DiffResponse{
		HasChanges: r.GetChanges() == pulumirpc.DiffResponse_DIFF_SOME, Changes: map[string]custom.DiffKind{},
		Replaces: r.GetReplaces(), DeleteBeforeReplace: r.GetDeleteBeforeReplace(),
	}
	for path, d := range r.GetDetailedDiff() {
		out.Changes[path] = custom.DiffKind(d.GetKind())
	}
	return out
}

// FromCreateRequest reads a Create off the wire, and whether it is a
// preview.
func FromCreateRequest(req *pulumirpc.CreateRequest) (custom.CreateRequest, bool, error) {
	inputs, err := crudValuesOf(req.GetUrn(), "inputs", req.GetProperties())
	if err != nil {
		return custom.CreateRequest{}, false, err
	}
	return createRequest(req, inputs), req.GetPreview(), nil
}

// createRequest is a Create with its inputs read.
func createRequest(req *pulumirpc.CreateRequest, inputs property.Map) custom.CreateRequest {
	return custom.CreateRequest{ResourceInfo: resourceInfo(req.GetUrn(), req.GetName(), req.GetType()),
		Inputs: inputs, Timeout: seconds(req.GetTimeout())}
}

// ToCreateRequest writes a Create as the engine sends it.
func ToCreateRequest(r custom.CreateRequest, preview bool) (*pulumirpc.CreateRequest, error) {
	props, err := marshal(r.Inputs, false)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Properties: props,
		Timeout: r.Timeout.Seconds(), Preview: preview}, nil
}

// ToCreateResponse writes what Create answers.
func ToCreateResponse(r custom.CreateResponse, byteStrings bool) (*pulumirpc.CreateResponse, error) {
	props, err := marshal(r.Outputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: string(r.ID), Properties: props}, nil
}

// FromCreateResponse reads what Create answered.
func FromCreateResponse(r *pulumirpc.CreateResponse) (custom.CreateResponse, error) {
	outputs, err := wire.UnmarshalMap(r.GetProperties(), answerValues)
	return custom.CreateResponse{ID: resource.ID(r.GetId()), Outputs: outputs}, err
}

// FromReadRequest reads a Read off the wire.
func FromReadRequest(req *pulumirpc.ReadRequest) (custom.ReadRequest, error) {
	state, err := crudValuesOf(req.GetUrn(), "state", req.GetProperties())
	if err != nil {
		return custom.ReadRequest{}, err
	}
	inputs, err := crudValuesOf(req.GetUrn(), "inputs", req.GetInputs())
	if err != nil {
		return custom.ReadRequest{}, err
	}
	return custom.ReadRequest{ResourceInfo: resourceInfo(req.GetUrn(), req.GetName(), req.GetType()),
		ID: resource.ID(req.GetId()), Inputs: inputs, Outputs: state}, nil
}

// ToReadRequest writes a Read as the engine sends it.
func ToReadRequest(r custom.ReadRequest) (*pulumirpc.ReadRequest, error) {
	inputs, state, err := marshal2(r.Inputs, r.Outputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Inputs: inputs, Properties: state}, nil
}

// ToReadResponse writes what Read answers: nothing for a resource that is
// gone.
func ToReadResponse(r custom.ReadResponse, byteStrings bool) (*pulumirpc.ReadResponse, error) {
	if r.ID == "" {
		return &pulumirpc.ReadResponse{}, nil
	}
	props, err := marshal(r.Outputs, byteStrings)
	if err != nil {
		return nil, err
	}
	ins, err := marshal(r.Inputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: string(r.ID), Properties: props, Inputs: ins}, nil
}

// FromReadResponse reads what Read answered.
func FromReadResponse(r *pulumirpc.ReadResponse) (custom.ReadResponse, error) {
	out := custom.ReadResponse{ID: resource.ID(r.GetId())}
	var err error
	if out.Inputs, err = wire.UnmarshalMap(r.GetInputs(), answerValues); err != nil {
		return custom.ReadResponse{}, err
	}
	out.Outputs, err = wire.UnmarshalMap(r.GetProperties(), answerValues)
	return out, err
}

// FromUpdateRequest reads an Update off the wire, and whether it is a
// preview.
func FromUpdateRequest(req *pulumirpc.UpdateRequest) (custom.UpdateRequest, bool, error) {
	oldOutputs, err := crudValuesOf(req.GetUrn(), "old state", req.GetOlds())
	if err != nil {
		return custom.UpdateRequest{}, false, err
	}
	oldInputs, err := crudValuesOf(req.GetUrn(), "old inputs", req.GetOldInputs())
	if err != nil {
		return custom.UpdateRequest{}, false, err
	}
	news, err := crudValuesOf(req.GetUrn(), "inputs", req.GetNews())
	if err != nil {
		return custom.UpdateRequest{}, false, err
	}
	return custom.UpdateRequest{ResourceInfo: resourceInfo(req.GetUrn(), req.GetName(), req.GetType()),
		ID: resource.ID(req.GetId()), OldInputs: oldInputs, OldOutputs: oldOutputs, Inputs: news,
		IgnoreChanges: req.GetIgnoreChanges(), Timeout: seconds(req.GetTimeout())}, req.GetPreview(), nil
}

// ToUpdateRequest writes an Update as the engine sends it.
func ToUpdateRequest(r custom.UpdateRequest, preview bool) (*pulumirpc.UpdateRequest, error) {
	olds, oldInputs, err := marshal2(r.OldOutputs, r.OldInputs)
	if err != nil {
		return nil, err
	}
	news, err := marshal(r.Inputs, false)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Olds: olds, OldInputs: oldInputs, News: news, IgnoreChanges: r.IgnoreChanges,
		Timeout: r.Timeout.Seconds(), Preview: preview}, nil
}

// ToUpdateResponse writes what Update answers.
func ToUpdateResponse(r custom.UpdateResponse, byteStrings bool) (*pulumirpc.UpdateResponse, error) {
	props, err := marshal(r.Outputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

// FromUpdateResponse reads what Update answered.
func FromUpdateResponse(r *pulumirpc.UpdateResponse) (custom.UpdateResponse, error) {
	outputs, err := wire.UnmarshalMap(r.GetProperties(), answerValues)
	return custom.UpdateResponse{Outputs: outputs}, err
}

// FromDeleteRequest reads a Delete off the wire.
func FromDeleteRequest(req *pulumirpc.DeleteRequest) (custom.DeleteRequest, error) {
	state, err := crudValuesOf(req.GetUrn(), "state", req.GetProperties())
	if err != nil {
		return custom.DeleteRequest{}, err
	}
	inputs, err := crudValuesOf(req.GetUrn(), "inputs", req.GetOldInputs())
	if err != nil {
		return custom.DeleteRequest{}, err
	}
	return custom.DeleteRequest{ResourceInfo: resourceInfo(req.GetUrn(), req.GetName(), req.GetType()),
		ID: resource.ID(req.GetId()), Inputs: inputs, Outputs: state, Timeout: seconds(req.GetTimeout())}, nil
}

// ToDeleteRequest writes a Delete as the engine sends it.
func ToDeleteRequest(r custom.DeleteRequest) (*pulumirpc.DeleteRequest, error) {
	state, inputs, err := marshal2(r.Outputs, r.Inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.DeleteRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Properties: state, OldInputs: inputs, Timeout: r.Timeout.Seconds()}, nil
}

// marshal2 writes two maps of a request.
func marshal2(a, b property.Map) (*structpb.Struct, *structpb.Struct, error) {
	x, err := marshal(a, false)
	if err != nil {
		return nil, nil, err
	}
	y, err := marshal(b, false)
	return x, y, err
}
