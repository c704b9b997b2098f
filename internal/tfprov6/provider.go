// Package tfprov6 is a Terraform provider for tests, written with
// terraform-plugin-framework and served over protocol 6: kv, a key/value
// store kept in a directory (the provider's `root`), one JSON file per
// entry, so tests can look at what it stores, change it behind its back,
// and tell two configured instances apart by their roots.
//
// Its resource kv_entry has an attribute of each kind the Terraform
// backend maps (required, optional+computed with a default, computed,
// sensitive, write-only, a map, a nested attribute, a nested block, one
// that requires replacement), validators (an error, and a warning on ttl_seconds under
// 60), private state, import by key, a schema upgrade from
// version 0, and fail_after_apply, which makes an apply fail after it
// stored the entry (a partial state). kv_entry is also a data source, and
// checksum a provider function. kv_job has a timeouts block and an apply
// that waits for StopProvider (job.go).
//
// New serves it in-process; cmd/terraform-provider-kv serves it as a
// plugin binary.
package tfprov6

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Name is the provider's type name; its resource and data source are
// Name+"_entry".
const Name = "kv"

// UnavailableEnv names an environment variable: when set, the process's
// first ReadDataSource answers gRPC's Unavailable and the process lives on
// (a transient failure, for fault tests).
const UnavailableEnv = "KV_UNAVAILABLE_ONCE"

// New returns the provider of the given version as an in-process
// protocol 6 server. Its StopProvider stops kv_job's applies in flight.
func New(version string) tfprotov6.ProviderServer {
	p := &kvProvider{version: version, stops: newStopper()}
	return &server{ProviderServer: providerserver.NewProtocol6(p)(), stops: p.stops, unavailable: os.Getenv(UnavailableEnv) != ""}
}

// server is the framework's server, with StopProvider reaching kv_job.
type server struct {
	tfprotov6.ProviderServer
	stops       *stopper
	mu          sync.Mutex
	unavailable bool // the next ReadDataSource answers Unavailable
}

func (s *server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	s.stops.stop()
	return s.ProviderServer.StopProvider(ctx, req)
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	s.mu.Lock()
	fail := s.unavailable
	s.unavailable = false
	s.mu.Unlock()
	if fail {
		return nil, status.Error(codes.Unavailable, "kv: transiently unavailable ("+UnavailableEnv+")")
	}
	return s.ProviderServer.ReadDataSource(ctx, req)
}

type kvProvider struct {
	version string
	stops   *stopper
}

var (
	_ provider.Provider              = (*kvProvider)(nil)
	_ provider.ProviderWithFunctions = (*kvProvider)(nil)
)

func (p *kvProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = Name
	resp.Version = p.version
}

func (p *kvProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"root": schema.StringAttribute{Required: true, Description: "Directory holding the entries."},
	}}
}

func (p *kvProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg struct {
		Root types.String `tfsdk:"root"`
	}
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Root.IsUnknown() || cfg.Root.ValueString() == "" {
		resp.Diagnostics.AddError("root not set", "the provider needs a known, non-empty root")
		return
	}
	s := &store{root: cfg.Root.ValueString(), stops: p.stops}
	resp.ResourceData = s
	resp.DataSourceData = s
}

func (p *kvProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &entryResource{} },
		func() resource.Resource { return &jobResource{} },
	}
}

func (p *kvProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &entryDataSource{} }}
}

func (p *kvProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{func() function.Function { return checksum{} }}
}

// store keeps one JSON file per entry under root.
type store struct {
	root  string
	stops *stopper
}

// record is what an entry's file holds.
type record struct {
	Value    string            `json:"value"`
	TTL      int64             `json:"ttl"`
	Secret   *string           `json:"secret,omitempty"`
	Tags     map[string]string `json:"tags,omitempty"`
	Owner    *ownerModel       `json:"owner,omitempty"`
	Rules    []ruleModel       `json:"rules,omitempty"`
	Revision int64             `json:"revision"`
	Token    string            `json:"token,omitempty"`
}

// Path is the file of key's entry.
func (s *store) Path(key string) string { return filepath.Join(s.root, key+".json") }

// get returns nil when the entry does not exist.
func (s *store) get(key string) (*record, error) {
	b, err := os.ReadFile(s.Path(key))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("entry %q: %w", key, err)
	}
	return &r, nil
}

func (s *store) put(key string, r *record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.root, 0o755); err != nil {
		return err
	}
	return os.WriteFile(s.Path(key), b, 0o644)
}

func (s *store) remove(key string) error {
	err := os.Remove(s.Path(key))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// checksum is the provider function checksum(value): value's SHA-256, hex.
type checksum struct{}

func (checksum) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "checksum"
}

func (checksum) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "SHA-256 of a value, hex",
		Parameters: []function.Parameter{function.StringParameter{Name: "value"}},
		Return:     function.StringReturn{},
	}
}

func (checksum) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var v string
	resp.Error = req.Arguments.Get(ctx, &v)
	if resp.Error != nil {
		return
	}
	sum := sha256.Sum256([]byte(v))
	resp.Error = resp.Result.Set(ctx, hex.EncodeToString(sum[:]))
}
