package hosttest

import (
	"errors"
	"maps"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/polyhost/polyhost/monitorclient"
)

// Errors a register hook can return to make the monitor report a failed or
// skipped registration (Result FAIL/SKIP when the caller supports result
// reporting, otherwise an RPC error, like the real engine).
var (
	ErrFail = errors.New("hosttest: registration failed")
	ErrSkip = errors.New("hosttest: registration skipped")
)

// Registration is one RegisterResource (or ReadResource) request the fake
// received, read as monitorclient wrote it, with what the fake answered.
// Inputs keep secrets, unknowns, resource references, and output values as
// dependency markers.
type Registration struct {
	URN urn.URN
	monitorclient.RegisterResourceRequest

	// AliasURNs are the aliases the request sent as URNs (to a monitor
	// without alias specs); AliasSpecs says it sent them as specs.
	AliasURNs  []urn.URN
	AliasSpecs bool
	// Read is set for a ReadResource (ImportID holds the ID read); the
	// fake answers with the register hook's outputs, else the properties.
	Read bool

	AcceptSecrets           bool
	AcceptResources         bool
	SupportsPartialValues   bool
	SupportsResultReporting bool

	// Raw is the request as received, for wire-level assertions.
	Raw *pulumirpc.RegisterResourceRequest

	// ID and Outputs are what the fake recorded as the resource's state
	// (before per-caller secret/unknown stripping).
	ID      resource.ID
	Outputs property.Map
}

// Invocation is one Invoke request (other than the getResource builtin,
// which is answered by the fake itself), read as monitorclient wrote it.
type Invocation struct {
	monitorclient.InvokeRequest
	Raw *pulumirpc.ResourceInvokeRequest
}

// Call is one Call request, read as monitorclient wrote it.
type Call struct {
	monitorclient.CallRequest
	Raw *pulumirpc.ResourceCallRequest
}

// Option configures Start.
type Option func(*config)

type config struct {
	project, stack   string
	organization     string
	config           map[string]string
	configSecretKeys []string
	features         []string
	noDeploymentInfo bool
	dryRun           bool
	registerHook     func(Registration) (resource.ID, property.Map, error)
	ownResources     bool
	parallel         int
	previewUnknowns  func(Registration) []string
	invokeHook       func(Invocation) (monitorclient.InvokeResponse, error)
	callHook         func(Call) (monitorclient.CallResponse, error)
}

// WithProject sets the project used in URNs (default "proj").
func WithProject(p string) Option { return func(c *config) { c.project = p } }

// WithStack sets the stack used in URNs (default "dev").
func WithStack(s string) Option { return func(c *config) { c.stack = s } }

// WithDeploymentConfig sets what GetDeploymentInfo reports of the
// organization and the stack config, with the keys that are secret.
func WithDeploymentConfig(org string, stackConfig map[string]string, secretKeys ...string) Option {
	return func(c *config) {
		c.organization, c.config, c.configSecretKeys = org, maps.Clone(stackConfig), slices.Clone(secretKeys)
	}
}

// WithFeatures replaces the advertised features, by legacy id ("secrets",
// "resourceReferences", "outputValues", "aliasSpecs", "deletedWith", ...;
// see FeatureIDs). The default is everything the real engine advertises.
func WithFeatures(ids ...string) Option {
	return func(c *config) { c.features = slices.Clone(ids) }
}

// WithoutDeploymentInfo makes GetDeploymentInfo Unimplemented, forcing
// clients onto the SupportsFeature fallback.
func WithoutDeploymentInfo() Option { return func(c *config) { c.noDeploymentInfo = true } }

// WithDryRun makes this a preview: custom resources get id "" and the
// output keys named by WithPreviewUnknowns become unknown.
func WithDryRun(dryRun bool) Option { return func(c *config) { c.dryRun = dryRun } }

// WithPreviewUnknowns names, per registration, the output keys that are
// unknown during a dry run.
func WithPreviewUnknowns(f func(Registration) []string) Option {
	return func(c *config) { c.previewUnknowns = f }
}

// WithRegisterHook customises registration results. It is called for every
// registration (check Registration.Custom/Remote). For custom resources it
// returns the id and outputs; for remote components the outputs (with
// dependency markers becoming propertyDependencies); for local components
// only the error is used. An error fails the registration (see ErrFail,
// ErrSkip). Default: id "id-"+name, outputs = inputs without dependencies.
func WithRegisterHook(f func(Registration) (id resource.ID, outputs property.Map, err error)) Option {
	return func(c *config) { c.registerHook = f }
}

// WithInvokeHook answers invokes other than pulumi:pulumi:getResource, as
// a provider would: its result (Unknown to answer that dependencies are
// pending), or the failures of a *monitorclient.FailuresError, or an
// error. Without it such invokes fail.
func WithInvokeHook(f func(Invocation) (monitorclient.InvokeResponse, error)) Option {
	return func(c *config) { c.invokeHook = f }
}

// WithCallHook answers Call requests, as WithInvokeHook answers invokes:
// the return values and their dependencies (besides those on the values),
// or the failures of a *monitorclient.FailuresError, or an error. Without
// it calls fail.
func WithCallHook(f func(Call) (monitorclient.CallResponse, error)) Option {
	return func(c *config) { c.callHook = f }
}

// Monitor is a running fake. All accessors are safe for concurrent use and
// return copies.
type Monitor struct {
	cfg  config
	addr string

	deploymentInfoCalls  atomic.Int64
	supportsFeatureCalls atomic.Int64

	mu            sync.Mutex
	registrations []Registration
	byURN         map[urn.URN]int // index into registrations
	outputs       map[urn.URN]property.Map
	outputsDone   map[urn.URN]bool
	invocations   []Invocation
	calls         []Call
	packages      []*pulumirpc.RegisterPackageRequest
	logs          []monitorclient.LogRequest
	root          string
}

// Start serves a fake monitor and engine on 127.0.0.1 (one port for both)
// until the test ends.
func Start(t testing.TB, opts ...Option) *Monitor {
	t.Helper()
	cfg := config{project: "proj", stack: "dev", features: FeatureIDs()}
	for _, o := range opts {
		o(&cfg)
	}
	for _, id := range cfg.features {
		if _, ok := featureEnums[id]; !ok {
			t.Fatalf("hosttest: unknown feature id %q (known: %v)", id, FeatureIDs())
		}
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("hosttest: listen: %v", err)
	}
	m := &Monitor{
		cfg:         cfg,
		addr:        lis.Addr().String(),
		byURN:       map[urn.URN]int{},
		outputs:     map[urn.URN]property.Map{},
		outputsDone: map[urn.URN]bool{},
	}
	const maxMsg = 400 * 1024 * 1024 // as rpcutil.GrpcChannelOptions
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(maxMsg), grpc.MaxSendMsgSize(maxMsg))
	pulumirpc.RegisterResourceMonitorServer(srv, &monitorServer{m: m})
	pulumirpc.RegisterEngineServer(srv, &engineServer{m: m})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	return m
}

// Addr is the host:port serving both the ResourceMonitor and Engine services.
func (m *Monitor) Addr() string { return m.addr }

// Project and Stack are the names used in URNs.
func (m *Monitor) Project() string { return m.cfg.project }
func (m *Monitor) Stack() string   { return m.cfg.stack }

// StackURN is the URN of the root stack resource (not registered by the
// fake; usable as a parent).
func (m *Monitor) StackURN() urn.URN {
	return urn.URN("urn:pulumi:" + m.cfg.stack + "::" + m.cfg.project + "::pulumi:pulumi:Stack::" +
		m.cfg.project + "-" + m.cfg.stack)
}

// Registrations returns every RegisterResource request received, in order.
func (m *Monitor) Registrations() []Registration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.registrations)
}

// Registration returns the registration with the given URN.
func (m *Monitor) Registration(u urn.URN) (Registration, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i, ok := m.byURN[u]
	if !ok {
		return Registration{}, false
	}
	return m.registrations[i], true
}

// Outputs returns what RegisterResourceOutputs recorded for urn.
func (m *Monitor) Outputs(u urn.URN) (property.Map, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.outputs[u]
	return o, ok
}

// Logs returns every Engine.Log request received, in order.
func (m *Monitor) Logs() []monitorclient.LogRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.logs)
}

// Invocations returns every Invoke received other than getResource.
func (m *Monitor) Invocations() []Invocation {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.invocations)
}

// Packages returns every RegisterPackage request received; the fake
// answers the nth with the reference "ref-n".
func (m *Monitor) Packages() []*pulumirpc.RegisterPackageRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.packages)
}

// Calls returns every Call received.
func (m *Monitor) Calls() []Call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

// RootResource is what Engine.SetRootResource last stored.
func (m *Monitor) RootResource() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.root
}

// DeploymentInfoCalls counts GetDeploymentInfo requests (including
// Unimplemented ones).
func (m *Monitor) DeploymentInfoCalls() int { return int(m.deploymentInfoCalls.Load()) }

// SupportsFeatureCalls counts SupportsFeature requests.
func (m *Monitor) SupportsFeatureCalls() int { return int(m.supportsFeatureCalls.Load()) }

// featureEnums maps feature ids to the DeploymentInfo enum. The legacy ids
// are those SupportsFeature answers; the rest exist only as enums.
var featureEnums = map[string]pulumirpc.ResourceMonitorFeature{
	"secrets":             pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_SECRETS,
	"resourceReferences":  pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES,
	"outputValues":        pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_OUTPUT_VALUES,
	"aliasSpecs":          pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_ALIAS_SPECS,
	"replacementTrigger":  pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_REPLACEMENT_TRIGGER,
	"deletedWith":         pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_DELETED_WITH,
	"replaceWith":         pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_REPLACE_WITH,
	"transforms":          pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_TRANSFORMS,
	"invokeTransforms":    pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_TRANSFORMS,
	"parameterization":    pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_PARAMETERIZATION,
	"resourceHooks":       pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_RESOURCE_HOOKS,
	"errorHooks":          pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_ERROR_HOOKS,
	"sendsOptionsToHooks": pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_SENDS_OPTIONS_TO_HOOKS,
	"byteString":          pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_BYTE_STRING,
	"invokeDependsOn":     pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_DEPENDS_ON,
	"invokeParent":        pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_PARENT,
}

// FeatureIDs lists every feature id the fake knows, sorted: the set the real
// engine advertises (enum values 0-15).
func FeatureIDs() []string { return slices.Sorted(maps.Keys(featureEnums)) }
