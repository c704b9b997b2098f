package rpc

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/protocol"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

// The converters of messages off the wire, FromX reading message X into
// the core's or the author's types: the server reads requests with them,
// hosttest's harness answers.

// FromConstructRequest reads a Construct off the wire: the inputs with
// their dependencies as markers, the program's options with its providers
// parsed, and the stack, its secret configuration marked. What does not
// read is the user's mistake.
func FromConstructRequest(req *pulumirpc.ConstructRequest) (core.ConstructRequest, error) {
	inputs, err := wire.UnmarshalMap(req.GetInputs(), programValues)
	return constructRequest(req, inputs, err)
}

// constructRequest reads req, whose inputs, or why they do not read, are
// inputs and inputsErr.
func constructRequest(req *pulumirpc.ConstructRequest, inputs property.Map, inputsErr error) (core.ConstructRequest, error) {
	o := monitorclient.ResourceOptions{
		Protect:                 req.Protect,
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
		DeletedWith:             urn.URN(req.GetDeletedWith()),
		DeleteBeforeReplace:     req.DeleteBeforeReplace,
		IgnoreChanges:           req.GetIgnoreChanges(),
		ReplaceOnChanges:        req.GetReplaceOnChanges(),
		RetainOnDelete:          req.RetainOnDelete,
		CustomTimeouts:          FromCustomTimeouts(req.GetCustomTimeouts()),
		Hooks:                   FromResourceHooks(req.GetResourceHooks()),
	}
	for _, a := range req.GetAliases() {
		u, spec := protocol.FromAlias(a)
		o.Aliases = append(o.Aliases, monitorclient.Alias{URN: u, Spec: (*monitorclient.AliasSpec)(spec)})
	}
	// The values, then the URNs; what does not read is reported in this
	// order: the inputs, a provider reference, the replacement trigger.
	trigger, triggerErr := wire.UnmarshalValue("replacementTrigger", req.GetReplacementTrigger(), programValues)
	o.Dependencies, o.ReplaceWith = wire.URNs(req.GetDependencies()), wire.URNs(req.GetReplaceWith())
	deps := protocol.FromDependencies(req.GetInputDependencies())
	if inputsErr != nil {
		return core.ConstructRequest{}, &diag.InputError{Message: "malformed inputs for " + req.GetType() + ": " + inputsErr.Error()}
	}
	for pkg, s := range req.GetProviders() {
		ref, err := providers.ParseReference(s)
		if err != nil {
			return core.ConstructRequest{}, &diag.InputError{Message: "malformed provider reference for " + pkg + ": " + err.Error()}
		}
		if o.Providers == nil {
			o.Providers = map[string]providers.Reference{}
		}
		o.Providers[pkg] = ref
	}
	if triggerErr != nil {
		return core.ConstructRequest{}, &diag.InputError{Message: "malformed replacementTrigger for " + req.GetType() + ": " + triggerErr.Error()}
	}
	o.ReplacementTrigger = trigger
	info := stackInfo(req.GetProject(), req.GetStack(), req.GetOrganization(), req.GetDryRun(), int(req.GetParallel()), req.GetConfig(), req.GetConfigSecretKeys())
	info.StackTraceHandle = req.GetStackTraceHandle()
	return core.ConstructRequest{
		Info:        info,
		MonitorAddr: req.GetMonitorEndpoint(),
		Type:        req.GetType(),
		Name:        req.GetName(),
		Parent:      urn.URN(req.GetParent()),
		Inputs:      withDependencies(inputs, deps),
		Options:     o,
	}, nil
}

// FromConstructResponse reads what Construct answered as a program's
// engine does: each output depends on what its state dependencies say.
func FromConstructResponse(r *pulumirpc.ConstructResponse) (core.ConstructResponse, error) {
	state, err := fromWire(r.GetState())
	if err != nil {
		return core.ConstructResponse{}, err
	}
	deps := nonNil(protocol.FromDependencies(r.GetStateDependencies()))
	return core.ConstructResponse{URN: urn.URN(r.GetUrn()), State: withDependencies(state, deps), StateDependencies: deps}, nil
}

// nonNil is deps, or an empty map for none: what hosttest's callers see
// of an answer without dependencies.
func nonNil(deps map[string][]urn.URN) map[string][]urn.URN {
	if deps == nil {
		return map[string][]urn.URN{}
	}
	return deps
}

// FromCustomTimeouts reads custom timeouts off the wire; nil stays nil.
func FromCustomTimeouts[T interface {
	GetCreate() string
	GetUpdate() string
	GetDelete() string
	GetRead() string
	comparable
}](ct T) *monitorclient.CustomTimeouts {
	var none T
	if ct == none {
		return nil
	}
	return &monitorclient.CustomTimeouts{Create: ct.GetCreate(), Update: ct.GetUpdate(), Delete: ct.GetDelete(), Read: ct.GetRead()}
}

// FromResourceHooks reads the resource hooks a request names; nil stays
// nil.
func FromResourceHooks[T interface {
	GetBeforeCreate() []string
	GetAfterCreate() []string
	GetBeforeUpdate() []string
	GetAfterUpdate() []string
	GetBeforeDelete() []string
	GetAfterDelete() []string
	GetOnError() []string
	comparable
}](h T) *monitorclient.ResourceHooks {
	var none T
	if h == none {
		return nil
	}
	return &monitorclient.ResourceHooks{
		BeforeCreate: h.GetBeforeCreate(), AfterCreate: h.GetAfterCreate(), BeforeUpdate: h.GetBeforeUpdate(),
		AfterUpdate: h.GetAfterUpdate(), BeforeDelete: h.GetBeforeDelete(), AfterDelete: h.GetAfterDelete(), OnError: h.GetOnError(),
	}
}

// FromCallRequest reads a Call off the wire: the arguments (__self__
// included) with their dependencies as markers, and the stack.
func FromCallRequest(req *pulumirpc.CallRequest) (core.CallRequest, error) {
	args, err := fromWire(req.GetArgs())
	if err != nil {
		return core.CallRequest{}, err
	}
	deps := protocol.FromDependencies(req.GetArgDependencies())
	info := stackInfo(req.GetProject(), req.GetStack(), req.GetOrganization(), req.GetDryRun(), int(req.GetParallel()), req.GetConfig(), req.GetConfigSecretKeys())
	info.StackTraceHandle = req.GetStackTraceHandle()
	return core.CallRequest{
		Info:        info,
		MonitorAddr: req.GetMonitorEndpoint(),
		Token:       req.GetTok(),
		Args:        withDependencies(args, deps),
	}, nil
}

// FromCallResponse reads what a Call answered as a program's engine does:
// each value depends on what its return dependencies say.
func FromCallResponse(r *pulumirpc.CallResponse) (core.CallResponse, error) {
	ret, err := fromWire(r.GetReturn())
	if err != nil {
		return core.CallResponse{}, err
	}
	deps := nonNil(protocol.FromDependencies(r.GetReturnDependencies()))
	return core.CallResponse{Return: withDependencies(ret, deps), ReturnDependencies: deps, Failures: protocol.FromCheckFailures(r.GetFailures())}, nil
}

// FromInvokeRequest reads an Invoke off the wire.
func FromInvokeRequest(req *pulumirpc.InvokeRequest) (core.InvokeRequest, error) {
	args, err := crudFromWire(req.GetArgs())
	if err != nil {
		return core.InvokeRequest{}, err
	}
	return core.InvokeRequest{Token: req.GetTok(), Args: args, Preview: req.GetPreview()}, nil
}

// FromInvokeResponse reads what an Invoke answered.
func FromInvokeResponse(r *pulumirpc.InvokeResponse) (core.InvokeResponse, error) {
	ret, err := wire.UnmarshalMap(r.GetReturn(), answerValues)
	return core.InvokeResponse{Return: ret, Failures: protocol.FromCheckFailures(r.GetFailures())}, err
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

// FromCheckResponse reads what Check answered.
func FromCheckResponse(r *pulumirpc.CheckResponse) (custom.CheckResponse, error) {
	inputs, err := wire.UnmarshalMap(r.GetInputs(), answerValues)
	return custom.CheckResponse{Inputs: inputs, Failures: protocol.FromCheckFailures(r.GetFailures())}, err
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

// FromCheckConfigRequest reads the configuration CheckConfig checks.
func FromCheckConfigRequest(req *pulumirpc.CheckRequest) (property.Map, error) {
	news, err := fromWire(req.GetNews())
	if err != nil {
		return property.Map{}, status.Errorf(codes.InvalidArgument, "configuration: %v", err)
	}
	return news, nil
}

// FromCheckConfigResponse reads what CheckConfig answered: the checked
// configuration, or its failures.
func FromCheckConfigResponse(r *pulumirpc.CheckResponse) (property.Map, []diag.CheckFailure, error) {
	checked, err := crudFromWire(r.GetInputs())
	return checked, protocol.FromCheckFailures(r.GetFailures()), err
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
	vars := req.GetVariables() //lint:ignore SA1019 engines before args send only variables
	for k, raw := range vars {
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
