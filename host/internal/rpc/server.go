package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

// server adapts a provider to pulumirpc.ResourceProviderServer: for every
// RPC it converts from the wire, calls the core and converts back.
type server struct {
	// Embedded on purpose: RPCs this host does not serve (StreamInvoke,
	// GetMapping, ...) answer Unimplemented, which the engine treats as
	// "not supported".
	pulumirpc.UnimplementedResourceProviderServer

	plugin   *core.Plugin
	inflight *inflight

	// byteStrings: the engine said at Handshake that it reads byte string
	// values, so strings that are not valid UTF-8 are sent as such.
	byteStrings atomic.Bool
}

func newServer(p *core.Provider) *server {
	return &server{plugin: core.NewPlugin(p), inflight: newInflight()}
}

// serving is the provider serving requests: the one Parameterize chose, if
// any.
func (s *server) serving() *core.Provider { return s.plugin.Serving() }

// NewServer returns p's gRPC server, for callers that serve it themselves
// or wrap some of its methods. [Serve] is the usual way to run a provider.
func NewServer(p *core.Provider) pulumirpc.ResourceProviderServer { return newServer(p) }

// fromWire reads values that may hold anything Handshake accepts:
// unknowns, secrets, resource references and output values.
func fromWire(s *structpb.Struct) (property.Map, error) {
	return wire.UnmarshalMap(s, wire.UnmarshalOptions{Resources: true, OutputValues: true})
}

// toWire writes values with unknowns, secrets and resource references kept.
func (s *server) toWire(m property.Map) (*structpb.Struct, error) {
	return wire.MarshalMap(m, wire.MarshalOptions{Secrets: true, Resources: true, ByteStrings: s.byteStrings.Load()})
}

// errorToStatus converts a core error to a gRPC status at the boundary: bad
// user input becomes InvalidArgument with the whole text, since the engine
// shows these RPCs' errors by their message alone (a Configure error, at the
// next Construct or Check). The secrets among the request's values (ins) are
// redacted from the message.
func errorToStatus(err error, ins ...property.Map) error {
	if err == nil {
		return nil
	}
	err = core.RedactErr(err, core.SecretTexts(ins...))
	if _, ok := err.(interface{ GRPCStatus() *status.Status }); ok {
		return err // already a status, from the wire
	}
	if _, ok := asInputError(err); ok {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return status.Error(codes.Unknown, err.Error())
}

// checkFailures converts failures about inputs for the wire, with secrets
// redacted. The engine prints the input named by a failure's property (by
// top-level key) beside it, so a failure about a property that holds a
// secret in any of ins names it in its reason instead.
func checkFailures(fs []diag.CheckFailure, ins ...property.Map) []*pulumirpc.CheckFailure {
	secrets := core.SecretTexts(ins...)
	out := make([]*pulumirpc.CheckFailure, 0, len(fs))
	for _, f := range fs {
		cf := &pulumirpc.CheckFailure{Property: f.Property, Reason: core.Redact(f.Reason, secrets)}
		if f.Property != "" && (core.SecretAt(f.Property, ins...) || core.SecretKey(f.Property, ins...)) {
			cf.Property, cf.Reason = "", f.Property+": "+cf.Reason
		}
		out = append(out, cf)
	}
	return out
}

// constructErrorToStatus is errorToStatus for Construct. The engine prints
// a Construct error's InputPropertiesError details itself, one line per
// property under "<type> resource '<name>' has a problem: <message>", so
// an InputError goes out as its summary plus one detail per property. One
// wrapped in more context (fmt.Errorf with %w) keeps that context in the
// summary, and its details.
func constructErrorToStatus(err error, ins ...property.Map) error {
	if err == nil {
		return nil
	}
	err = core.RedactErr(err, core.SecretTexts(ins...))
	if ie, ok := asInputError(err); ok && len(ins) > 0 {
		if outer := err.Error(); outer != ie.Error() {
			prefix, ok := strings.CutSuffix(outer, ie.Error())
			if !ok {
				prefix = outer + ": " // wrapped some other way: the whole text, then the details
			}
			ie = &diag.InputError{Message: prefix + ie.Message, Failures: ie.Failures}
		}
		return rpcerror.WrapDetailedError(inputPropertiesError(ie, ins[0]))
	}
	return errorToStatus(err)
}

// Handshake answers what the host accepts and remembers what the engine
// offers. Of the engine's flags the host reads accepts_byte_string
// (strings that are not valid UTF-8 go out as byte strings only then).
// invoke_with_preview needs nothing of it: where the engine sets it,
// InvokeRequest.preview says a preview, which [InPreview] reads. It leaves
// alone:
//   - configure_with_urn: a plugin process serves one provider resource,
//     and nothing the host does needs its URN, name or ID;
//   - supports_views: the host creates no view resources;
//   - sends_old_outputs_to_check: custom.CheckRequest offers backends the old
//     inputs only, as before;
//   - supports_refresh_before_update: no backend can ask for a refresh
//     before its update.
//
// Configure answers the same flags, for engines that skip Handshake.
func (s *server) Handshake(ctx context.Context, req *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	s.serving().SetEngine(req.GetEngineAddress())
	s.byteStrings.Store(req.GetAcceptsByteString())
	return &pulumirpc.ProviderHandshakeResponse{
		AcceptSecrets: acceptSecrets, AcceptResources: acceptResources, AcceptOutputs: acceptOutputs,
		AcceptsByteString: acceptsByteString, SupportsAutonamingConfiguration: supportsAutonaming,
	}, nil
}

// What Handshake and Configure answer. The engine requires that both say
// the same.
const (
	acceptSecrets, acceptResources, acceptOutputs = true, true, true
	// Byte strings decode into strings.
	acceptsByteString = true
	// Check passes the engine's autonaming options to backends
	// (custom.CheckRequest.Autonaming).
	supportsAutonaming = true
)

func (s *server) Attach(ctx context.Context, req *pulumirpc.PluginAttach) (*emptypb.Empty, error) {
	s.serving().SetEngine(req.GetAddress())
	return &emptypb.Empty{}, nil
}

// GetPluginInfo reports the plugin's version, also once parameterized.
func (s *server) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: s.plugin.Base().Version()}, nil
}

func (s *server) GetSchema(ctx context.Context, req *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	out, err := s.serving().SchemaJSON()
	if err != nil {
		return nil, errorToStatus(err)
	}
	return &pulumirpc.GetSchemaResponse{Schema: string(out)}, nil
}

func (s *server) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	s.inflight.cancelAll()
	return &emptypb.Empty{}, nil
}

func (s *server) CheckConfig(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := fromWire(req.GetNews())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "configuration: %v", err)
	}
	checked, failures := s.serving().CheckConfig(news)
	inputs, err := s.toWire(checked)
	if err != nil {
		return nil, err
	}
	errs := make([]diag.CheckFailure, len(failures))
	for i, f := range failures {
		errs[i] = diag.CheckFailure(f)
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: checkFailures(errs, news, checked)}, nil
}

func (s *server) DiffConfig(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, err := fromWire(req.GetOldInputs())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "old configuration: %v", err)
	}
	if req.GetOldInputs() == nil {
		// Engines that do not send old inputs send old outputs, which for a
		// provider are the same configuration.
		if olds, err = fromWire(req.GetOlds()); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "old configuration: %v", err)
		}
	}
	news, err := fromWire(req.GetNews())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "new configuration: %v", err)
	}
	return diffResponse(s.serving().DiffConfig(olds, news)), nil
}

func diffResponse(d core.ConfigDiff) *pulumirpc.DiffResponse {
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
	var config property.Map
	if req.GetArgs() != nil {
		c, err := fromWire(req.GetArgs())
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "configuration: %v", err)
		}
		config = c
	} else {
		config = configFromVariables(req.GetVariables()) //lint:ignore SA1019 engines before args send only variables
	}
	if err := s.serving().Configure(ctx, config); err != nil {
		return nil, errorToStatus(err, config)
	}
	// An engine that skipped Handshake reads the flags here; byte strings
	// have no flag of their own: such an engine is sent none.
	return &pulumirpc.ConfigureResponse{
		AcceptSecrets: acceptSecrets, SupportsPreview: true, AcceptResources: acceptResources,
		AcceptOutputs: acceptOutputs, SupportsAutonamingConfiguration: supportsAutonaming,
	}, nil
}

// logPanic sends the stack of a panic in author code to the engine's debug
// log; the user's error says only what panicked, and where.
func (s *server) logPanic(ctx context.Context, err error, ins ...property.Map) {
	var se *diag.StepError
	if errors.As(err, &se) && se.Panic && len(se.Stack) > 0 {
		s.serving().Log(ctx, monitorclient.SeverityDebug, "", core.Redact(se.Error()+"\n"+string(se.Stack), core.SecretTexts(ins...)))
	}
}

// configFromVariables reads the legacy `pkg:config:key` variables map, whose
// non-string values are JSON-encoded.
func configFromVariables(vars map[string]string) property.Map {
	out := map[string]property.Value{}
	for k, raw := range vars {
		key := k
		if i := lastColon(k); i >= 0 {
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
	return property.NewMap(out)
}

func lastColon(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return i
		}
	}
	return -1
}

func (s *server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	creq, err := fromConstructRequest(req)
	if err != nil {
		return nil, errorToStatus(err)
	}
	if h := s.serving().BridgedConstruct(creq.Type); h != nil {
		return s.constructBridged(ctx, h, req, creq)
	}
	resp, err := s.serving().Construct(ctx, creq)
	if err != nil {
		s.logPanic(ctx, err, creq.Inputs, creq.Info.Config)
		return nil, constructErrorToStatus(core.EngineNamed(err, creq.Type, creq.Name), creq.Inputs, creq.Info.Config)
	}
	state, err := s.toWire(resp.State)
	if err != nil {
		return nil, errorToStatus(&diag.StepError{Step: "marshal outputs", Err: err}, creq.Inputs) // the engine names the resource
	}
	out := &pulumirpc.ConstructResponse{Urn: string(resp.URN), State: state,
		StateDependencies: map[string]*pulumirpc.ConstructResponse_PropertyDependencies{}}
	for k, deps := range resp.StateDependencies {
		out.StateDependencies[k] = &pulumirpc.ConstructResponse_PropertyDependencies{Urns: wire.URNStrings(deps)}
	}
	return out, nil
}

func fromConstructRequest(req *pulumirpc.ConstructRequest) (core.ConstructRequest, error) {
	inputs, err := fromWire(req.GetInputs())
	if err != nil {
		return core.ConstructRequest{}, &diag.InputError{Message: "malformed inputs for " + req.GetType() + ": " + err.Error()}
	}
	deps := map[string][]string{}
	for k, d := range req.GetInputDependencies() {
		deps[k] = d.GetUrns()
	}
	o := monitorclient.ResourceOptions{
		Dependencies:            wire.URNs(req.GetDependencies()),
		Protect:                 req.Protect,
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
		DeletedWith:             urn.URN(req.GetDeletedWith()),
		DeleteBeforeReplace:     req.DeleteBeforeReplace,
		IgnoreChanges:           req.GetIgnoreChanges(),
		ReplaceOnChanges:        req.GetReplaceOnChanges(),
		RetainOnDelete:          req.RetainOnDelete,
		ReplaceWith:             wire.URNs(req.GetReplaceWith()),
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
	if ct := req.GetCustomTimeouts(); ct != nil {
		o.CustomTimeouts = &monitorclient.CustomTimeouts{Create: ct.GetCreate(), Update: ct.GetUpdate(), Delete: ct.GetDelete(), Read: ct.GetRead()}
	}
	if o.ReplacementTrigger, err = wire.UnmarshalValue("replacementTrigger", req.GetReplacementTrigger(),
		wire.UnmarshalOptions{Resources: true, OutputValues: true}); err != nil {
		return core.ConstructRequest{}, &diag.InputError{Message: "malformed replacementTrigger for " + req.GetType() + ": " + err.Error()}
	}
	if h := req.GetResourceHooks(); h != nil {
		o.Hooks = &monitorclient.ResourceHooks{
			BeforeCreate: h.GetBeforeCreate(), AfterCreate: h.GetAfterCreate(), BeforeUpdate: h.GetBeforeUpdate(),
			AfterUpdate: h.GetAfterUpdate(), BeforeDelete: h.GetBeforeDelete(), AfterDelete: h.GetAfterDelete(), OnError: h.GetOnError(),
		}
	}
	for _, a := range req.GetAliases() {
		o.Aliases = append(o.Aliases, fromAlias(a))
	}
	info := stackInfo(req.GetProject(), req.GetStack(), req.GetOrganization(), req.GetDryRun(), int(req.GetParallel()), req.GetConfig(), req.GetConfigSecretKeys())
	info.StackTraceHandle = req.GetStackTraceHandle()
	return core.ConstructRequest{
		Info:        info,
		MonitorAddr: req.GetMonitorEndpoint(),
		Type:        req.GetType(),
		Name:        req.GetName(),
		Parent:      urn.URN(req.GetParent()),
		Inputs:      core.WithInputDependencies(inputs, deps),
		Options:     o,
	}, nil
}

func fromAlias(a *pulumirpc.Alias) monitorclient.Alias {
	if u := a.GetUrn(); u != "" {
		return monitorclient.Alias{URN: urn.URN(u)}
	}
	spec := a.GetSpec()
	return monitorclient.Alias{Spec: &monitorclient.AliasSpec{
		Name: spec.GetName(), Type: spec.GetType(), Stack: spec.GetStack(), Project: spec.GetProject(),
		ParentURN: urn.URN(spec.GetParentUrn()), NoParent: spec.GetNoParent(),
	}}
}

// stackInfo builds the deployment description; secret config values are
// marked secret so they stay secret in whatever the component builds.
func stackInfo(project, stack, org string, dryRun bool, parallel int, config map[string]string, secretKeys []string) core.StackInfo {
	secret := map[string]bool{}
	for _, k := range secretKeys {
		secret[k] = true
	}
	cfg := make(map[string]property.Value, len(config))
	for k, v := range config {
		cfg[k] = property.New(v).WithSecret(secret[k])
	}
	return core.StackInfo{Project: project, Stack: stack, Organization: org, DryRun: dryRun, Parallel: parallel,
		Config: property.NewMap(cfg)}
}

// inflight tracks the contexts of requests in progress so Cancel can abort
// them all.
type inflight struct {
	mu      sync.Mutex
	next    int
	cancels map[int]context.CancelFunc
}

func newInflight() *inflight { return &inflight{cancels: map[int]context.CancelFunc{}} }

// track makes ctx cancellable by cancelAll until untrack(id) is called.
func (f *inflight) track(ctx context.Context) (context.Context, int) {
	ctx, cancel := context.WithCancel(ctx)
	f.mu.Lock()
	id := f.next
	f.next++
	f.cancels[id] = cancel
	f.mu.Unlock()
	return ctx, id
}

// untrack ends what track started: the request is over.
func (f *inflight) untrack(id int) {
	f.mu.Lock()
	cancel := f.cancels[id]
	delete(f.cancels, id)
	f.mu.Unlock()
	cancel()
}

func (f *inflight) cancelAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cancel := range f.cancels {
		cancel()
	}
}

// asInputError finds an InputError anywhere in err's chain.
func asInputError(err error) (*diag.InputError, bool) {
	var ie *diag.InputError
	return ie, errors.As(err, &ie)
}

// inputPropertiesError converts to the SDK type the rpcerror package encodes
// into gRPC status details. Its message is only the summary: the engine
// prints each detail on a line of its own after it, with the value of that
// input (all of them for an empty path). So such a property is named in the
// message instead when it holds a secret in inputs, or has no path.
func inputPropertiesError(e *diag.InputError, inputs property.Map) *perrors.InputPropertiesError {
	msg := e.Message
	if msg == "" {
		msg = "invalid inputs"
	}
	var details []perrors.InputPropertyErrorDetails
	for _, f := range e.Failures {
		if f.Property == "" || core.SecretAt(f.Property, inputs) {
			msg += "; " + f.String()
			continue
		}
		details = append(details, perrors.InputPropertyErrorDetails{PropertyPath: f.Property, Reason: f.Reason})
	}
	return perrors.NewInputPropertiesError(msg, details...)
}
