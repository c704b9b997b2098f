package rpc

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
)

// The provider's own configuration: CheckConfig, DiffConfig, Configure.

func (s *server) CheckConfig(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := FromCheckConfigRequest(req)
	if err != nil {
		return nil, err
	}
	checked, failures := s.serving().CheckConfig(news)
	return ToCheckConfigResponse(checked, failures, s.byteStrings.Load())
}

// FromCheckConfigRequest reads the configuration CheckConfig checks.
func FromCheckConfigRequest(req *pulumirpc.CheckRequest) (property.Map, error) {
	news, err := fromWire(req.GetNews())
	if err != nil {
		return property.Map{}, status.Errorf(codes.InvalidArgument, "configuration: %v", err)
	}
	return news, nil
}

// ToCheckConfigRequest writes a CheckConfig of a new provider, as the
// engine sends it.
func ToCheckConfigRequest(news property.Map) (*pulumirpc.CheckRequest, error) {
	s, err := wire.MarshalMap(news, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckRequest{News: s, Olds: &structpb.Struct{}}, nil
}

// ToCheckConfigResponse writes what CheckConfig answers.
func ToCheckConfigResponse(checked property.Map, failures []diag.CheckFailure, byteStrings bool) (*pulumirpc.CheckResponse, error) {
	inputs, err := marshal(checked, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: ToCheckFailures(failures)}, nil
}

// FromCheckConfigResponse reads what CheckConfig answered: the checked
// configuration, or its failures.
func FromCheckConfigResponse(r *pulumirpc.CheckResponse) (property.Map, []diag.CheckFailure, error) {
	checked, err := crudFromWire(r.GetInputs())
	return checked, FromCheckFailures(r.GetFailures()), err
}

func (s *server) DiffConfig(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news, err := FromDiffConfigRequest(req)
	if err != nil {
		return nil, err
	}
	return ToDiffConfigResponse(s.serving().DiffConfig(olds, news)), nil
}

// FromDiffConfigRequest reads the old and new configuration DiffConfig
// compares. Engines that do not send old inputs send old outputs, which for
// a provider are the same configuration.
func FromDiffConfigRequest(req *pulumirpc.DiffRequest) (olds, news property.Map, err error) {
	old := req.GetOldInputs()
	if old == nil {
		old = req.GetOlds()
	}
	if olds, err = fromWire(old); err != nil {
		return property.Map{}, property.Map{}, status.Errorf(codes.InvalidArgument, "old configuration: %v", err)
	}
	if news, err = fromWire(req.GetNews()); err != nil {
		return property.Map{}, property.Map{}, status.Errorf(codes.InvalidArgument, "new configuration: %v", err)
	}
	return olds, news, nil
}

// ToDiffConfigResponse writes what DiffConfig answers, each change
// detailed.
func ToDiffConfigResponse(d core.ConfigDiff) *pulumirpc.DiffResponse {
	resp := &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE, HasDetailedDiff: true,
		DetailedDiff: map[string]*pulumirpc.PropertyDiff{}}
	replace := map[string]bool{}
	for _, k := range d.Replaces {
		replace[k] = true
	}
	for _, k := range d.Changed {
		kind := pulumirpc.PropertyDiff_UPDATE
		if replace[k] {
			kind = pulumirpc.PropertyDiff_UPDATE_REPLACE
		}
		resp.DetailedDiff[k] = &pulumirpc.PropertyDiff{Kind: kind, InputDiff: true}
		resp.Diffs = append(resp.Diffs, k)
	}
	resp.Replaces = d.Replaces
	if len(d.Changed) > 0 {
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return resp
}

func (s *server) Configure(ctx context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	config, err := FromConfigureRequest(req)
	if err != nil {
		return nil, err
	}
	if err := s.serving().Configure(ctx, config); err != nil {
		return nil, toStatus(err)
	}
	// An engine that skipped Handshake reads the flags here; byte strings
	// have no flag of their own: such an engine is sent none.
	return &pulumirpc.ConfigureResponse{
		AcceptSecrets: acceptSecrets, SupportsPreview: true, AcceptResources: acceptResources,
		AcceptOutputs: acceptOutputs, SupportsAutonamingConfiguration: supportsAutonaming,
	}, nil
}

// FromConfigureRequest reads the configuration: its args, or from engines
// that send none, the legacy `pkg:config:key` variables map, whose
// non-string values are JSON-encoded.
func FromConfigureRequest(req *pulumirpc.ConfigureRequest) (property.Map, error) {
	if req.GetArgs() != nil {
		c, err := fromWire(req.GetArgs())
		if err != nil {
			return property.Map{}, status.Errorf(codes.InvalidArgument, "configuration: %v", err)
		}
		return c, nil
	}
	out := map[string]property.Value{}
	for k, raw := range req.GetVariables() { //lint:ignore SA1019 engines before args send only variables
		key := k
		if i := strings.LastIndexByte(k, ':'); i >= 0 {
			key = k[i+1:]
		}
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err == nil {
			if pv, err := property.Any(v); err == nil {
				out[key] = pv
				continue
			}
		}
		out[key] = property.New(raw)
	}
	return property.NewMap(out), nil
}

// ToConfigureRequest writes a Configure with checked configuration, as the
// engine sends it.
func ToConfigureRequest(checked property.Map) (*pulumirpc.ConfigureRequest, error) {
	args, err := wire.MarshalMap(checked, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true, AcceptResources: true}, nil
}
