package rpc

import (
	"context"
	"errors"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
)

// crudFromWire reads values for CRUD and Invoke. There is no monitor
// connection there, so a resource reference stands for its ID (or URN),
// as the provider implementer's guide prescribes.
// Unknowns and secrets are kept, so they can be rejected or preserved.
func crudFromWire(s *structpb.Struct) (property.Map, error) {
	return wire.UnmarshalMap(s, wire.UnmarshalOptions{})
}

func badInput(what string, err error) error {
	return status.Errorf(codes.InvalidArgument, "%s: %v", what, err)
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func (s *server) Check(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	olds, err := crudFromWire(req.GetOlds())
	if err != nil {
		return nil, badInput("old inputs of "+req.GetUrn(), err)
	}
	news, err := crudFromWire(req.GetNews())
	if err != nil {
		return nil, badInput("inputs of "+req.GetUrn(), err)
	}
	checked, failures, err := s.check(ctx, req, olds, news)
	if err != nil {
		return nil, err
	}
	inputs, err := s.toWire(checked)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: failures}, nil
}

// check is Check after its values are read: req's other fields, olds and
// news. It returns the checked inputs and the failures for the wire.
func (s *server) check(ctx context.Context, req *pulumirpc.CheckRequest, olds, news property.Map) (property.Map, []*pulumirpc.CheckFailure, error) {
	ri := s.info(req.GetUrn(), req.GetName(), req.GetType())
	creq := custom.CheckRequest{ResourceInfo: ri, OldInputs: olds, Inputs: news, RandomSeed: req.GetRandomSeed()}
	if a := req.GetAutonaming(); a != nil {
		creq.Autonaming = &custom.Autonaming{ProposedName: a.GetProposedName()}
		switch a.GetMode() {
		case pulumirpc.CheckRequest_AutonamingOptions_ENFORCE:
			creq.Autonaming.Mode = custom.AutonamingEnforce
		case pulumirpc.CheckRequest_AutonamingOptions_DISABLE:
			creq.Autonaming.Mode = custom.AutonamingDisable
		}
	}
	resp, err := s.serving().Check(ctx, creq)
	if err != nil {
		return property.Map{}, nil, errorToStatus(err, olds, news, ri.Config)
	}
	return resp.Inputs, checkFailures(resp.Failures, news, resp.Inputs, olds, ri.Config), nil
}

func (s *server) info(u, name, typ string) custom.ResourceInfo {
	return custom.ResourceInfo{URN: urn.URN(u), Name: name, Type: typ, Config: s.serving().Config()}
}

func (s *server) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	oldOutputs, err := crudFromWire(req.GetOlds())
	if err != nil {
		return nil, badInput("old state of "+req.GetUrn(), err)
	}
	oldInputs := oldOutputs
	if req.GetOldInputs() != nil {
		if oldInputs, err = crudFromWire(req.GetOldInputs()); err != nil {
			return nil, badInput("old inputs of "+req.GetUrn(), err)
		}
	}
	news, err := crudFromWire(req.GetNews())
	if err != nil {
		return nil, badInput("inputs of "+req.GetUrn(), err)
	}
	return s.diff(ctx, req, oldOutputs, oldInputs, news)
}

// diff is Diff after its values are read.
func (s *server) diff(ctx context.Context, req *pulumirpc.DiffRequest, oldOutputs, oldInputs, news property.Map) (*pulumirpc.DiffResponse, error) {
	ri := s.info(req.GetUrn(), req.GetName(), req.GetType())
	d, err := s.serving().Diff(ctx, custom.DiffRequest{
		ResourceInfo: ri,
		ID:           resource.ID(req.GetId()), OldInputs: oldInputs, OldOutputs: oldOutputs, Inputs: news,
		IgnoreChanges: req.GetIgnoreChanges(),
	})
	if err != nil {
		return nil, errorToStatus(err, oldInputs, oldOutputs, news, ri.Config)
	}
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
	return resp, nil
}

func (s *server) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	inputs, err := crudFromWire(req.GetProperties())
	if err != nil {
		return nil, badInput("inputs of "+req.GetUrn(), err)
	}
	id, outputs, err := s.create(ctx, req, inputs)
	if err != nil {
		return nil, err
	}
	props, err := s.toWire(outputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: string(id), Properties: props}, nil
}

// create is Create after its inputs are read; it returns the new
// resource's ID and outputs.
func (s *server) create(ctx context.Context, req *pulumirpc.CreateRequest, inputs property.Map) (resource.ID, property.Map, error) {
	ri := s.info(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := s.serving().Create(ctx, custom.CreateRequest{
		ResourceInfo: ri,
		Inputs:       inputs, Timeout: seconds(req.GetTimeout()),
	}, req.GetPreview())
	if err != nil {
		return "", property.Map{}, s.crudError(err, inputs, ri.Config)
	}
	return resp.ID, resp.Outputs, nil
}

func (s *server) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	state, err := crudFromWire(req.GetProperties())
	if err != nil {
		return nil, badInput("state of "+req.GetUrn(), err)
	}
	inputs, err := crudFromWire(req.GetInputs())
	if err != nil {
		return nil, badInput("inputs of "+req.GetUrn(), err)
	}
	ri := s.info(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := s.serving().Read(ctx, custom.ReadRequest{
		ResourceInfo: ri,
		ID:           resource.ID(req.GetId()), Inputs: inputs, Outputs: state,
	})
	if err != nil {
		return nil, s.crudError(err, inputs, state, ri.Config)
	}
	if resp.ID == "" {
		return &pulumirpc.ReadResponse{}, nil // gone
	}
	props, err := s.toWire(resp.Outputs)
	if err != nil {
		return nil, err
	}
	ins, err := s.toWire(resp.Inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: string(resp.ID), Properties: props, Inputs: ins}, nil
}

func (s *server) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	oldOutputs, err := crudFromWire(req.GetOlds())
	if err != nil {
		return nil, badInput("old state of "+req.GetUrn(), err)
	}
	oldInputs, err := crudFromWire(req.GetOldInputs())
	if err != nil {
		return nil, badInput("old inputs of "+req.GetUrn(), err)
	}
	news, err := crudFromWire(req.GetNews())
	if err != nil {
		return nil, badInput("inputs of "+req.GetUrn(), err)
	}
	ri := s.info(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := s.serving().Update(ctx, custom.UpdateRequest{
		ResourceInfo: ri,
		ID:           resource.ID(req.GetId()), OldInputs: oldInputs, OldOutputs: oldOutputs, Inputs: news,
		IgnoreChanges: req.GetIgnoreChanges(), Timeout: seconds(req.GetTimeout()),
	}, req.GetPreview())
	if err != nil {
		return nil, s.crudError(err, news, oldOutputs, ri.Config)
	}
	props, err := s.toWire(resp.Outputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

func (s *server) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	state, err := crudFromWire(req.GetProperties())
	if err != nil {
		return nil, badInput("state of "+req.GetUrn(), err)
	}
	inputs, err := crudFromWire(req.GetOldInputs())
	if err != nil {
		return nil, badInput("inputs of "+req.GetUrn(), err)
	}
	ri := s.info(req.GetUrn(), req.GetName(), req.GetType())
	err = s.serving().Delete(ctx, custom.DeleteRequest{
		ResourceInfo: ri,
		ID:           resource.ID(req.GetId()), Inputs: inputs, Outputs: state, Timeout: seconds(req.GetTimeout()),
	})
	if err != nil {
		return nil, s.crudError(err, inputs, state, ri.Config)
	}
	return &emptypb.Empty{}, nil
}

// crudError converts a backend error; a partial create or update carries
// the resource's ID and state so the engine records it. ins[0] are the
// inputs; all of ins are searched for secrets to redact.
func (s *server) crudError(err error, ins ...property.Map) error {
	err = core.RedactErr(err, core.SecretTexts(ins...))
	var pe *custom.PartialError
	if !errors.As(err, &pe) {
		return errorToStatus(err)
	}
	props, merr := s.toWire(pe.Outputs)
	if merr != nil {
		return errorToStatus(err)
	}
	ins0, merr := s.toWire(ins[0])
	if merr != nil {
		return errorToStatus(err)
	}
	return rpcerror.WithDetails(rpcerror.New(codes.Unknown, pe.Error()),
		&pulumirpc.ErrorResourceInitFailed{Id: string(pe.ID), Properties: props, Inputs: ins0, Reasons: []string{pe.Err.Error()}})
}
