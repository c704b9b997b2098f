package tfprov6

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// stopper is a provider instance's stop signal: StopProvider closes the
// current channel and starts another, as SDKv2 does.
type stopper struct {
	mu sync.Mutex
	ch chan struct{}
}

func newStopper() *stopper { return &stopper{ch: make(chan struct{})} }

// stopped is closed by the next StopProvider.
func (s *stopper) stopped() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

func (s *stopper) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ch)
	s.ch = make(chan struct{})
}

// jobResource is kv_job: a job named name, without an id attribute
// (protocol 6 allows it), with a timeouts block as
// SDKv2 and terraform-plugin-framework-timeouts declare it (create,
// update, delete), which records the timeouts each apply received: in
// timeouts_seen on create and update, in the file <name>.deleted on
// delete. With hold set, a create or update first writes "applying" to
// the file hold names (a FIFO, for tests), then waits for StopProvider
// or the end of its context, and fails saying which, with a state. It
// imports by name.
type jobResource struct{ store *store }

var (
	_ resource.ResourceWithConfigure   = (*jobResource)(nil)
	_ resource.ResourceWithImportState = (*jobResource)(nil)
)

// ImportState imports a job by its name.
func (r *jobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("name"), req, resp)
}

type jobModel struct {
	Name         types.String   `tfsdk:"name"`
	Value        types.String   `tfsdk:"value"`
	Hold         types.String   `tfsdk:"hold"`
	TimeoutsSeen types.String   `tfsdk:"timeouts_seen"`
	Timeouts     *timeoutsModel `tfsdk:"timeouts"`
}

type timeoutsModel struct {
	Create types.String `tfsdk:"create"`
	Update types.String `tfsdk:"update"`
	Delete types.String `tfsdk:"delete"`
}

func (r *jobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
}

func (r *jobResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{Required: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"value":         schema.StringAttribute{Optional: true},
			"hold":          schema.StringAttribute{Optional: true, Description: "A file the apply writes to before it waits to be stopped."},
			"timeouts_seen": schema.StringAttribute{Computed: true, Description: "The timeouts the last apply received."},
		},
		Blocks: map[string]schema.Block{
			"timeouts": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
				"create": schema.StringAttribute{Optional: true},
				"update": schema.StringAttribute{Optional: true},
				"delete": schema.StringAttribute{Optional: true},
			}},
		},
	}
}

func (r *jobResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.store, _ = req.ProviderData.(*store)
}

// seen is what timeouts holds, each value checked as the timeouts module
// parses it: "create=1m0s update= delete=".
func seen(t *timeoutsModel) (string, error) {
	if t == nil {
		t = &timeoutsModel{}
	}
	var parts []string
	for _, kv := range []struct {
		name string
		v    types.String
	}{{"create", t.Create}, {"update", t.Update}, {"delete", t.Delete}} {
		s := kv.v.ValueString()
		if s != "" {
			if _, err := time.ParseDuration(s); err != nil {
				return "", fmt.Errorf("timeouts.%s: %w", kv.name, err)
			}
		}
		parts = append(parts, kv.name+"="+s)
	}
	return strings.Join(parts, " "), nil
}

// apply records the plan's timeouts and, with hold, waits to be stopped.
func (r *jobResource) apply(ctx context.Context, plan *jobModel, add func(string, string)) bool {
	if r.store == nil {
		add("provider not configured", "kv_job needs a configured provider")
		return false
	}
	s, err := seen(plan.Timeouts)
	if err != nil {
		add("bad timeouts", err.Error())
		return false
	}
	plan.TimeoutsSeen = types.StringValue(s)
	if hold := plan.Hold.ValueString(); hold != "" {
		stopped := r.store.stops.stopped()
		if err := os.WriteFile(hold, []byte("applying\n"), 0o644); err != nil {
			add("hold", err.Error())
			return false
		}
		// The framework's StopProvider cancels the contexts of the calls
		// in flight too, after the server closed stopped.
		select {
		case <-stopped:
		case <-ctx.Done():
		}
		select {
		case <-stopped:
			add("stopped", "the apply was told to stop by StopProvider")
		default:
			add("cancelled", "the apply's context ended: "+ctx.Err().Error())
		}
	}
	return true
}

func (r *jobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan jobModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}
	if r.apply(ctx, &plan, resp.Diagnostics.AddError) {
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	}
}

func (r *jobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan jobModel
	if resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...); resp.Diagnostics.HasError() {
		return
	}
	if r.apply(ctx, &plan, resp.Diagnostics.AddError) {
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	}
}

func (r *jobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state jobModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Delete records the delete timeout of the state it deletes in
// <name>.deleted.json: {"timeouts_seen": ...}.
func (r *jobResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state jobModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	if r.store == nil {
		resp.Diagnostics.AddError("provider not configured", "kv_job needs a configured provider")
		return
	}
	s, err := seen(state.Timeouts)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("timeouts"), "bad timeouts", err.Error())
		return
	}
	b, _ := json.Marshal(map[string]string{"timeouts_seen": s})
	if err := os.MkdirAll(r.store.root, 0o755); err != nil {
		resp.Diagnostics.AddError("cannot record the delete", err.Error())
		return
	}
	if err := os.WriteFile(r.store.Path(state.Name.ValueString()+".deleted"), b, 0o644); err != nil {
		resp.Diagnostics.AddError("cannot record the delete", err.Error())
	}
}
