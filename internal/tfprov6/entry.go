package tfprov6

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// DefaultTTL is ttl_seconds when the configuration leaves it out.
const DefaultTTL = 3600

// CrashEnv names the environment variable whose value is a key: the
// process exits with status 2 inside the create of that key's entry,
// before storing it (a provider crashing mid-apply, for fault tests).
const CrashEnv = "KV_CRASH_ON_CREATE"

// PrivateKey is the private state key kv_entry sets on create and import
// and requires on read and update: its value is {"root": <root>}.
const PrivateKey = "origin"

type entryResource struct{ store *store }

var (
	_ resource.ResourceWithConfigure      = (*entryResource)(nil)
	_ resource.ResourceWithImportState    = (*entryResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*entryResource)(nil)
	_ resource.ResourceWithValidateConfig = (*entryResource)(nil)
)

type entryModel struct {
	ID             types.String      `tfsdk:"id"`
	Key            types.String      `tfsdk:"key"`
	Value          types.String      `tfsdk:"value"`
	TTLSeconds     types.Int64       `tfsdk:"ttl_seconds"`
	Secret         types.String      `tfsdk:"secret"`
	Tags           map[string]string `tfsdk:"tags"`
	Owner          *ownerModel       `tfsdk:"owner"`
	Rule           []ruleModel       `tfsdk:"rule"`
	Revision       types.Int64       `tfsdk:"revision"`
	FailAfterApply types.Bool        `tfsdk:"fail_after_apply"`
	Token          types.String      `tfsdk:"token"`
}

type ownerModel struct {
	Name  string  `tfsdk:"name" json:"name"`
	Email *string `tfsdk:"email" json:"email,omitempty"`
}

type ruleModel struct {
	Name    string `tfsdk:"name" json:"name"`
	MaxSize *int64 `tfsdk:"max_size" json:"max_size,omitempty"`
}

func (r *entryResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_entry"
}

// entrySchema is kv_entry's schema, version 1.
func entrySchema() schema.Schema {
	return schema.Schema{
		Version: 1,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"key": schema.StringAttribute{Required: true, Validators: []validator.String{keyFormat{}},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"value":       schema.StringAttribute{Required: true},
			"ttl_seconds": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(DefaultTTL)},
			"secret":      schema.StringAttribute{Optional: true, Sensitive: true},
			"tags":        schema.MapAttribute{Optional: true, ElementType: types.StringType},
			"owner": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
				"name":  schema.StringAttribute{Required: true},
				"email": schema.StringAttribute{Optional: true},
			}},
			"revision":         schema.Int64Attribute{Computed: true, Description: "1 on create, one more on each update."},
			"fail_after_apply": schema.BoolAttribute{Optional: true, Description: "Fail each apply after storing the entry."},
			"token":            schema.StringAttribute{Optional: true, WriteOnly: true, Description: "Stored, never in the state."},
		},
		Blocks: map[string]schema.Block{
			"rule": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"name":     schema.StringAttribute{Required: true},
				"max_size": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{nonNegative{}}},
			}}},
		},
	}
}

func (r *entryResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = entrySchema()
}

// ValidateConfig warns of a ttl_seconds below a minute.
func (r *entryResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var ttl types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("ttl_seconds"), &ttl)...)
	if !ttl.IsNull() && !ttl.IsUnknown() && ttl.ValueInt64() < 60 {
		resp.Diagnostics.AddAttributeWarning(path.Root("ttl_seconds"), "short ttl", "entries living under a minute may expire before they are read")
	}
}

func (r *entryResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.store, _ = req.ProviderData.(*store)
}

// configured reports an error when the provider was not configured.
func (r *entryResource) configured(add func(string, string)) bool {
	if r.store == nil {
		add("provider not configured", "kv_entry needs a configured provider")
	}
	return r.store != nil
}

func (m *entryModel) record() *record {
	rec := &record{Value: m.Value.ValueString(), TTL: m.TTLSeconds.ValueInt64(), Tags: m.Tags, Owner: m.Owner, Rules: m.Rule, Token: m.Token.ValueString()}
	if !m.Secret.IsNull() {
		s := m.Secret.ValueString()
		rec.Secret = &s
	}
	return rec
}

func (m *entryModel) load(rec *record) {
	m.Value = types.StringValue(rec.Value)
	m.TTLSeconds = types.Int64Value(rec.TTL)
	m.Secret = types.StringPointerValue(rec.Secret)
	m.Tags, m.Owner, m.Rule = rec.Tags, rec.Owner, rec.Rules
	if m.Rule == nil {
		m.Rule = []ruleModel{} // a block list is empty, never null
	}
	m.Revision = types.Int64Value(rec.Revision)
}

func (r *entryResource) origin() []byte {
	b, _ := json.Marshal(map[string]string{"root": r.store.root})
	return b
}

// checkOrigin requires the private state create or import set.
func (r *entryResource) checkOrigin(ctx context.Context, get func(context.Context, string) ([]byte, diag.Diagnostics), add func(string, string)) {
	b, _ := get(ctx, PrivateKey)
	if b == nil {
		add("private state lost", fmt.Sprintf("kv_entry's private state has no %q key", PrivateKey))
	}
}

func (r *entryResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan entryModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() || !r.configured(resp.Diagnostics.AddError) {
		return
	}
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("token"), &plan.Token)...) // write-only: not planned
	key := plan.Key.ValueString()
	if crash := os.Getenv(CrashEnv); crash != "" && crash == key {
		os.Exit(2) // a provider dying mid-apply, for fault tests
	}
	if old, err := r.store.get(key); err != nil || old != nil {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "entry exists", fmt.Sprintf("%s already holds %q (%v)", r.store.root, key, err))
		return
	}
	rec := plan.record()
	rec.Revision = 1
	if err := r.store.put(key, rec); err != nil {
		resp.Diagnostics.AddError("cannot store entry", err.Error())
		return
	}
	plan.ID, plan.Revision = types.StringValue(key), types.Int64Value(1)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, PrivateKey, r.origin())...)
	if plan.FailAfterApply.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("fail_after_apply"), "apply failed", "fail_after_apply is set: the entry is stored, the apply fails")
	}
}

func (r *entryResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state entryModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || !r.configured(resp.Diagnostics.AddError) {
		return
	}
	if r.checkOrigin(ctx, req.Private.GetKey, resp.Diagnostics.AddError); resp.Diagnostics.HasError() {
		return
	}
	rec, err := r.store.get(state.ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("cannot read entry", err.Error())
		return
	}
	if rec == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	state.Key = state.ID
	state.load(rec)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *entryResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior entryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.Append(req.State.Get(ctx, &prior)...); resp.Diagnostics.HasError() || !r.configured(resp.Diagnostics.AddError) {
		return
	}
	if r.checkOrigin(ctx, req.Private.GetKey, resp.Diagnostics.AddError); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("token"), &plan.Token)...)
	rec := plan.record()
	rec.Revision = prior.Revision.ValueInt64() + 1
	if err := r.store.put(prior.ID.ValueString(), rec); err != nil {
		resp.Diagnostics.AddError("cannot store entry", err.Error())
		return
	}
	plan.Revision = types.Int64Value(rec.Revision)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	if plan.FailAfterApply.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("fail_after_apply"), "apply failed", "fail_after_apply is set: the entry is stored, the apply fails")
	}
}

func (r *entryResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state entryModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() || !r.configured(resp.Diagnostics.AddError) {
		return
	}
	if err := r.store.remove(state.ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("cannot delete entry", err.Error())
	}
}

// ImportState imports an entry by its key; Read fills in the rest.
func (r *entryResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !r.configured(resp.Diagnostics.AddError) {
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("key"), req.ID)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, PrivateKey, r.origin())...)
}

// UpgradeState upgrades version 0, {id, key, data}, whose data is now
// value.
func (r *entryResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	v0 := &schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true},
		"key":  schema.StringAttribute{Required: true},
		"data": schema.StringAttribute{Required: true},
	}}
	return map[int64]resource.StateUpgrader{0: {PriorSchema: v0,
		StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			var old struct {
				ID   types.String `tfsdk:"id"`
				Key  types.String `tfsdk:"key"`
				Data types.String `tfsdk:"data"`
			}
			if resp.Diagnostics.Append(req.State.Get(ctx, &old)...); resp.Diagnostics.HasError() {
				return
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, entryModel{
				ID: old.ID, Key: old.Key, Value: old.Data, TTLSeconds: types.Int64Value(DefaultTTL),
				Secret: types.StringNull(), Rule: []ruleModel{}, Revision: types.Int64Value(1), FailAfterApply: types.BoolNull(),
			})...)
		}}}
}

// keyFormat accepts keys of lower-case letters, digits and underscores.
type keyFormat struct{}

var keyRE = regexp.MustCompile(`^[a-z0-9_]+$`)

func (keyFormat) Description(context.Context) string { return "lower-case letters, digits, _" }
func (k keyFormat) MarkdownDescription(ctx context.Context) string {
	return k.Description(ctx)
}
func (keyFormat) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if v := req.ConfigValue; !v.IsNull() && !v.IsUnknown() && !keyRE.MatchString(v.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "invalid key", fmt.Sprintf("%q: a key has only lower-case letters, digits and _", v.ValueString()))
	}
}

// nonNegative accepts integers >= 0.
type nonNegative struct{}

func (nonNegative) Description(context.Context) string { return "at least 0" }
func (n nonNegative) MarkdownDescription(ctx context.Context) string {
	return n.Description(ctx)
}
func (nonNegative) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if v := req.ConfigValue; !v.IsNull() && !v.IsUnknown() && v.ValueInt64() < 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "negative size", fmt.Sprintf("%d is below 0", v.ValueInt64()))
	}
}

// entryDataSource reads an entry by key.
type entryDataSource struct{ store *store }

var _ datasource.DataSourceWithConfigure = (*entryDataSource)(nil)

func (d *entryDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_entry"
}

func (d *entryDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{Attributes: map[string]dschema.Attribute{
		"key":         dschema.StringAttribute{Required: true},
		"value":       dschema.StringAttribute{Computed: true},
		"ttl_seconds": dschema.Int64Attribute{Computed: true},
	}}
}

func (d *entryDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	d.store, _ = req.ProviderData.(*store)
}

func (d *entryDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m struct {
		Key   types.String `tfsdk:"key"`
		Value types.String `tfsdk:"value"`
		TTL   types.Int64  `tfsdk:"ttl_seconds"`
	}
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if d.store == nil {
		resp.Diagnostics.AddError("provider not configured", "kv_entry needs a configured provider")
		return
	}
	rec, err := d.store.get(m.Key.ValueString())
	if err != nil || rec == nil {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "no such entry", fmt.Sprintf("%q: %v", m.Key.ValueString(), err))
		return
	}
	m.Value, m.TTL = types.StringValue(rec.Value), types.Int64Value(rec.TTL)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
