package monitorclient

import (
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Features are the protocol features the monitor advertised.
type Features struct {
	Secrets             bool
	ResourceReferences  bool
	OutputValues        bool
	AliasSpecs          bool
	ReplacementTrigger  bool
	DeletedWith         bool
	ReplaceWith         bool
	Transforms          bool
	InvokeTransforms    bool
	Parameterization    bool
	ResourceHooks       bool
	ErrorHooks          bool
	SendsOptionsToHooks bool
	ByteString          bool
	InvokeDependsOn     bool
	InvokeParent        bool
	StateMigrations     bool
}

// DeploymentInfo is what GetDeploymentInfo reported. It is only available
// when the monitor implements that RPC.
type DeploymentInfo struct {
	Project          string
	Stack            string
	Organization     string
	Config           map[string]string
	ConfigSecretKeys []string
	DryRun           bool
	Parallel         int32
}

// Alias is one alias of a resource: either a full URN or a Spec.
type Alias struct {
	URN  urn.URN
	Spec *AliasSpec
}

// AliasSpec describes an alias by parts; empty parts mean "same as the
// resource". ParentURN and NoParent are exclusive; neither means "the
// resource's own parent".
type AliasSpec struct {
	Name      string
	Type      string
	Stack     string
	Project   string
	ParentURN urn.URN
	NoParent  bool
}

// CustomTimeouts are duration strings such as "5m".
type CustomTimeouts struct {
	Create string
	Update string
	Delete string
	Read   string
}

// ResourceHooks name, per step, hooks the program registered with the
// engine; the engine runs them.
type ResourceHooks struct {
	BeforeCreate []string
	AfterCreate  []string
	BeforeUpdate []string
	AfterUpdate  []string
	BeforeDelete []string
	AfterDelete  []string
	OnError      []string
}

func (h *ResourceHooks) empty() bool {
	return h == nil || len(h.BeforeCreate)+len(h.AfterCreate)+len(h.BeforeUpdate)+len(h.AfterUpdate)+
		len(h.BeforeDelete)+len(h.AfterDelete)+len(h.OnError) == 0
}

// ResourceOptions are the options a program sets on a resource that the
// engine passes on to a component's Construct: [Component.Options] in
// package host, and what a registration takes (RegisterResourceRequest
// embeds them).
type ResourceOptions struct {
	// Providers are a component's providers by package, for its children.
	// A program's are parsed: ref.URN() and ref.ID() (providers.UnknownID
	// in a preview, for one not created yet); resolve a provider's URN to
	// read its state, its configuration.
	Providers               map[string]providers.Reference
	Dependencies            []urn.URN
	Protect                 *bool
	Aliases                 []Alias
	AdditionalSecretOutputs []string
	CustomTimeouts          *CustomTimeouts
	DeletedWith             urn.URN
	DeleteBeforeReplace     *bool
	IgnoreChanges           []string
	ReplaceOnChanges        []string
	RetainOnDelete          *bool
	ReplaceWith             []urn.URN      // resources whose replacement replaces this one
	ReplacementTrigger      property.Value // any change to it replaces the resource; null if unset
	Hooks                   *ResourceHooks
}

// RegisterResourceRequest registers a custom resource, a local component or
// a remote (multi-language) component.
//
// Fields of the protocol's request left out: AliasURNs (Aliases says the
// same in the form current engines take), SourcePosition and StackTrace
// (the positions of a program's source, which a provider has none of;
// ParentStackTraceHandle links to the program's), Transforms and
// StateMigrations (callbacks the engine calls back into: a provider serves
// none), PluginChecksums, EnvVarMappings and SnippetId (set by language
// SDKs for their own plugins and snippets). The accept and supports flags
// are always set: the client reads everything they offer.
type RegisterResourceRequest struct {
	Type   string
	Name   string
	Parent urn.URN
	// Custom must be set for a custom resource (one a provider's CRUD
	// manages): without it the engine records a component of that type,
	// with no provider and no outputs.
	Custom bool
	Remote bool

	// Inputs may carry secret, unknown and dependency markers. Dependencies
	// on values are added to PropertyDependencies and Dependencies.
	Inputs property.Map

	Provider             providers.Reference // of a custom resource; zero for the default
	PropertyDependencies map[string][]urn.URN
	// ResourceOptions (Protect, Providers, Aliases, ...) are read and
	// assigned as req.Protect; a literal sets them as
	// ResourceOptions: ResourceOptions{Protect: p}.
	ResourceOptions

	Version           string
	PluginDownloadURL string
	ImportID          resource.ID
	// HideDiffs are properties whose changes the CLI does not show.
	HideDiffs []string
	// PackageRef is a package registered with RegisterPackage (a
	// parameterized one): the resource is of that package, with its
	// version and parameters, instead of Version and PluginDownloadURL.
	PackageRef string
	// ParentStackTraceHandle is the engine's handle for the stack trace of
	// the request that led here (a Construct's or Call's), so the engine
	// can stitch traces together across plugins.
	ParentStackTraceHandle string
}

// Result is the registration outcome the monitor reported.
type Result int

const (
	ResultSuccess Result = iota
	ResultFail
	ResultSkip
)

func (r Result) String() string {
	switch r {
	case ResultSuccess:
		return "success"
	case ResultFail:
		return "fail"
	case ResultSkip:
		return "skip"
	default:
		return "unknown"
	}
}

// RegisterResourceResponse is the monitor's answer to a registration.
// [RegisterResourceResponse.IDValue] and [RegisterResourceResponse.Output]
// read the ID and outputs as values, the way the Go SDK resolves them.
type RegisterResourceResponse struct {
	URN urn.URN
	// ID is empty for components and for custom resources whose id is not
	// known yet (preview).
	ID resource.ID
	// Outputs are what the engine sent, with unknowns (property.Computed),
	// secrets and resource references. Local components get an empty map,
	// and in a preview a provider that does not preview sends none.
	Outputs              property.Map
	Stables              []string
	PropertyDependencies map[string][]urn.URN
	// Result is ResultSuccess unless the monitor reported a failed or
	// skipped registration; then Outputs should be treated as unknown.
	Result Result
	// Unknown means the outputs must be treated as unknown even though the
	// registration succeeded (e.g. a create elided by a targeted update).
	Unknown bool
	// DryRun means the registration was part of a preview. The client sets
	// it when the monitor reports the deployment's (GetDeploymentInfo);
	// host.Component.Register always does.
	DryRun bool

	custom bool         // the request's Custom
	inputs property.Map // the request's Inputs, for Output
}

// keepUnknowns reports whether a missing or null output is unknown: in a
// preview, or when the engine says the outputs are not known.
func (r RegisterResourceResponse) keepUnknowns() bool {
	return r.DryRun || r.Unknown || r.Result == ResultSkip
}

// IDValue is the resource's ID as a value that depends on the resource: a
// string, unknown while the ID is not known (in a preview, for a resource
// not created yet), null for a component, which has none.
func (r RegisterResourceResponse) IDValue() property.Value {
	var v property.Value
	switch {
	case !r.custom:
		return v
	case r.ID == "" && r.keepUnknowns():
		v = property.New(property.Computed)
	default:
		v = property.New(string(r.ID))
	}
	return v.WithDependencies([]urn.URN{r.URN})
}

// Reference is a reference to the resource, as a value that depends on it,
// for a component's output or another resource's input: its URN, and for
// a custom resource its ID, unknown while the ID is not known (in a
// preview, for a resource not created yet). A program reading it gets the
// resource object of its SDK.
func (r RegisterResourceResponse) Reference() property.Value {
	ref := property.ResourceReference{URN: r.URN}
	if r.custom {
		ref.ID = property.New(property.Computed)
		if r.ID != "" {
			ref.ID = property.New(string(r.ID))
		}
	}
	return property.New(ref).WithDependencies([]urn.URN{r.URN})
}

// Output is the output key, as the Go SDK resolves a resource's output, so
// that what is derived from it waits for what it stands for: in a preview
// (or when the engine says the outputs are not known) a missing or null
// output is unknown, since a provider that does not preview sends none;
// otherwise a missing output is the input of the same name, if any. The
// value depends on the resource.
func (r RegisterResourceResponse) Output(key string) property.Value {
	v, ok := r.Outputs.GetOk(key)
	switch {
	case (!ok || v.IsNull()) && r.keepUnknowns():
		v = property.New(property.Computed).WithSecret(v.Secret())
	case !ok:
		v = r.inputs.Get(key)
	}
	deps := v.Dependencies()
	if r.URN != "" && !slices.Contains(deps, r.URN) {
		deps = append(slices.Clone(deps), r.URN)
	}
	return v.WithDependencies(deps)
}

// RegisterResourceOutputsRequest records a component's outputs.
type RegisterResourceOutputsRequest struct {
	URN     urn.URN
	Outputs property.Map
}

// RegisterResourceOutputsResponse is empty; it exists so the method keeps
// the Method(ctx, Request) (Response, error) shape.
type RegisterResourceOutputsResponse struct{}

// InvokeRequest calls a provider function through the monitor.
type InvokeRequest struct {
	Token             string
	Args              property.Map
	Provider          providers.Reference // zero for the default
	Version           string
	PluginDownloadURL string
	// DependsOn makes the monitor answer Unknown while these resources are
	// pending (only honoured if Features().InvokeDependsOn).
	DependsOn []urn.URN
	// Parent selects the provider from the parent's providers (honoured only
	// if Features().InvokeParent).
	Parent urn.URN
	// PackageRef is a package registered with RegisterPackage: the
	// function is of that (parameterized) package.
	PackageRef string
	// ParentStackTraceHandle: see RegisterResourceRequest.
	ParentStackTraceHandle string
}

// InvokeResponse carries the function result. Failures come back as a
// *FailuresError instead.
type InvokeResponse struct {
	Return property.Map
	// Unknown means the monitor declined to run the invoke because
	// dependencies are pending; Return is then empty.
	Unknown bool
}

// GetResourceRequest asks for a resource registered in this deployment.
type GetResourceRequest struct {
	URN urn.URN
}

// GetResourceResponse is the answer of the builtin pulumi:pulumi:getResource.
type GetResourceResponse struct {
	URN      urn.URN
	ID       resource.ID         // empty for components
	Provider providers.Reference // zero if none
	State    property.Map
}

// CallRequest calls a method of a resource through the monitor. The
// receiver, if any, goes in Args["__self__"] as a resource reference.
type CallRequest struct {
	Token string
	// Args may carry markers; dependencies on values are added to
	// ArgDependencies.
	Args              property.Map
	ArgDependencies   map[string][]urn.URN
	Provider          providers.Reference // zero for the default
	Version           string
	PluginDownloadURL string
	// PackageRef is a package registered with RegisterPackage: the method
	// is of that (parameterized) package.
	PackageRef string
	// ParentStackTraceHandle: see RegisterResourceRequest.
	ParentStackTraceHandle string
}

// CallResponse carries the method's return values. Failures come back as a
// *FailuresError instead.
type CallResponse struct {
	Return             property.Map
	ReturnDependencies map[string][]urn.URN
	// Unknown means the method was not called: an argument was unknown in
	// a preview, so the result is too (host's Component.Call).
	Unknown bool
}

// Severity of a log message.
type Severity int

const (
	SeverityDebug Severity = iota
	SeverityInfo
	SeverityWarning
	SeverityError
)

// String is the severity as the engine names it: DEBUG, INFO, WARNING,
// ERROR.
func (s Severity) String() string {
	switch s {
	case SeverityDebug:
		return "DEBUG"
	case SeverityInfo:
		return "INFO"
	case SeverityWarning:
		return "WARNING"
	case SeverityError:
		return "ERROR"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// LogRequest is one message for the engine's diagnostics. URN attaches it to
// a resource; Ephemeral makes it a status line.
type LogRequest struct {
	Severity  Severity
	Message   string
	URN       urn.URN
	StreamID  int32
	Ephemeral bool
}

// LogResponse is empty; see RegisterResourceOutputsResponse.
type LogResponse struct{}

// RegisterPackageRequest registers a package, possibly parameterized (for
// example a Terraform provider bridged at run time), for resources and
// invokes that name it by the returned reference.
type RegisterPackageRequest struct {
	Name        string
	Version     string
	DownloadURL string
	Checksums   map[string][]byte
	// Parameterization is nil for a plain package.
	Parameterization *Parameterization
}

// Parameterization names the package a parameterized plugin serves.
type Parameterization struct {
	Name    string
	Version string
	Value   []byte
}

// RegisterPackageResponse carries the package's reference, for
// RegisterResourceRequest.PackageRef.
type RegisterPackageResponse struct {
	Ref string
}

// ReadResourceRequest reads an existing resource into the stack: the
// provider's Read of ID, recorded as an external resource.
type ReadResourceRequest struct {
	Type   string
	Name   string
	ID     resource.ID
	Parent urn.URN
	// Properties help the provider find the resource (they may be empty).
	Properties              property.Map
	Dependencies            []urn.URN
	Provider                providers.Reference // zero for the default
	Version                 string
	PluginDownloadURL       string
	PackageRef              string
	AdditionalSecretOutputs []string
	ParentStackTraceHandle  string
}

// ReadResourceResponse is the resource read: its URN and state.
type ReadResourceResponse struct {
	URN        urn.URN
	Properties property.Map
}
