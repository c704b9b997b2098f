package tfwire

import (
	"bufio"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/host/terraform/internal/tftest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	tftest.Cleanup()
	os.Exit(code)
}

func timeProvider(t *testing.T) string { return tftest.TimeProvider(t) }

// logLines collects what a Client logs.
type logLines struct {
	mu     sync.Mutex
	lines  []string
	logged chan struct{} // a token after each line, for wait
}

func newLogLines() *logLines { return &logLines{logged: make(chan struct{}, 1)} }

func (l *logLines) log(level, msg string) {
	l.mu.Lock()
	l.lines = append(l.lines, level+" "+msg)
	l.mu.Unlock()
	select {
	case l.logged <- struct{}{}:
	default:
	}
}

// wait returns the first line holding sub once one arrives: a provider's
// own lines come on a stream of their own, maybe after a call's answer.
// It gives up after within, a bound for a broken test, not a timing.
func (l *logLines) wait(sub string, within time.Duration) (string, bool) {
	give := time.After(within)
	for {
		if line, ok := l.find(sub); ok {
			return line, true
		}
		select {
		case <-l.logged:
		case <-give:
			return "", false
		}
	}
}

func (l *logLines) find(sub string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			return s, true
		}
	}
	return "", false
}

func startTime(t *testing.T, cfg Config) *Client {
	t.Helper()
	cfg.Path = timeProvider(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func noErrors(t *testing.T, what string, ds []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: error diagnostic: %s: %s (at %v)", what, d.Summary, d.Detail, d.Attribute)
		}
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// object builds a value of the object type typ: attrs set, the rest null.
func object(typ tftypes.Type, attrs map[string]tftypes.Value) tftypes.Value {
	ot := typ.(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range ot.AttributeTypes {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(typ, vals)
}

func dynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// attrs reads an object DynamicValue into its attributes.
func attrs(t *testing.T, typ tftypes.Type, dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	t.Helper()
	if dv == nil {
		t.Fatal("no value")
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]tftypes.Value{}
	if err := v.As(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func str(t *testing.T, v tftypes.Value) string {
	t.Helper()
	var s string
	if !v.IsKnown() || v.IsNull() {
		t.Fatalf("want a known string, have %v", v)
	}
	if err := v.As(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func num(t *testing.T, v tftypes.Value) int64 {
	t.Helper()
	var f big.Float
	if err := v.As(&f); err != nil {
		t.Fatal(err)
	}
	i, _ := f.Int64()
	return i
}

// stateJSON writes a value as Terraform writes state: plain JSON.
func stateJSON(t *testing.T, v tftypes.Value) []byte {
	t.Helper()
	var conv func(v tftypes.Value) any
	conv = func(v tftypes.Value) any {
		if v.IsNull() {
			return nil
		}
		switch {
		case v.Type().Is(tftypes.String):
			var s string
			_ = v.As(&s)
			return s
		case v.Type().Is(tftypes.Number):
			var f big.Float
			_ = v.As(&f)
			return json.Number(f.Text('f', -1))
		case v.Type().Is(tftypes.Bool):
			var b bool
			_ = v.As(&b)
			return b
		default:
			m := map[string]tftypes.Value{}
			if err := v.As(&m); err != nil {
				t.Fatalf("stateJSON: %v", err)
			}
			out := map[string]any{}
			for k, e := range m {
				out[k] = conv(e)
			}
			return out
		}
	}
	b, err := json.Marshal(conv(v))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTimeProviderSchema(t *testing.T) {
	c := startTime(t, Config{})
	if v := c.ProtocolVersion(); v != 5 {
		t.Errorf("ProtocolVersion() = %d, want 5", v)
	}
	s, err := c.GetProviderSchema(ctx(t), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "GetProviderSchema", s.Diagnostics)
	for _, r := range []string{"time_static", "time_offset", "time_rotating", "time_sleep"} {
		if s.ResourceSchemas[r] == nil {
			t.Errorf("no schema for %s", r)
		}
	}
	static := s.ResourceSchemas["time_static"]
	if static != nil {
		var found bool
		for _, a := range static.Block.Attributes {
			if a.Name == "rfc3339" {
				found = a.Type.Is(tftypes.String) && a.Optional && a.Computed
			}
		}
		if !found {
			t.Errorf("time_static has no optional computed string rfc3339: %v", static.Block.Attributes)
		}
	}
	f := s.Functions["rfc3339_parse"]
	if f == nil {
		t.Fatalf("no function rfc3339_parse in %v", s.Functions)
	}
	if len(f.Parameters) != 1 || !f.Parameters[0].Type.Is(tftypes.String) || f.Return == nil {
		t.Errorf("rfc3339_parse: parameters %v, return %v", f.Parameters, f.Return)
	}
	m, err := c.GetMetadata(ctx(t), &tfprotov6.GetMetadataRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !containsType(m.Resources, "time_static") {
		t.Errorf("GetMetadata resources %v lack time_static", m.Resources)
	}
	fs, err := c.GetFunctions(ctx(t), &tfprotov6.GetFunctionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if fs.Functions["rfc3339_parse"] == nil {
		t.Errorf("GetFunctions lacks rfc3339_parse: %v", fs.Functions)
	}
}

func containsType(ms []tfprotov6.ResourceMetadata, name string) bool {
	for _, m := range ms {
		if m.TypeName == name {
			return true
		}
	}
	return false
}

// configured starts the time provider, configures it and returns its schema.
func configured(t *testing.T, cfg Config) (*Client, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()
	c := startTime(t, cfg)
	s, err := c.GetProviderSchema(ctx(t), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	pt := s.Provider.ValueType()
	v, err := c.ValidateProviderConfig(ctx(t), &tfprotov6.ValidateProviderConfigRequest{Config: dynamic(t, pt, object(pt, nil))})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ValidateProviderConfig", v.Diagnostics)
	r, err := c.ConfigureProvider(ctx(t), &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.9.0",
		Config:           dynamic(t, pt, object(pt, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ConfigureProvider", r.Diagnostics)
	return c, s
}

func TestTimeStaticLifecycle(t *testing.T) {
	c, s := configured(t, Config{})
	typ := s.ResourceSchemas["time_static"].ValueType()
	null := dynamic(t, typ, tftypes.NewValue(typ, nil))
	const when = "2021-03-04T05:06:07Z"
	config := dynamic(t, typ, object(typ, map[string]tftypes.Value{"rfc3339": tftypes.NewValue(tftypes.String, when)}))

	vr, err := c.ValidateResourceConfig(ctx(t), &tfprotov6.ValidateResourceConfigRequest{TypeName: "time_static", Config: config})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ValidateResourceConfig", vr.Diagnostics)

	plan, err := c.PlanResourceChange(ctx(t), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "time_static", PriorState: null, ProposedNewState: config, Config: config,
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "PlanResourceChange", plan.Diagnostics)
	if got := str(t, attrs(t, typ, plan.PlannedState)["rfc3339"]); got != when {
		t.Errorf("planned rfc3339 = %q, want %q", got, when)
	}

	applied, err := c.ApplyResourceChange(ctx(t), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "time_static", PriorState: null, PlannedState: plan.PlannedState, Config: config,
		PlannedPrivate: plan.PlannedPrivate,
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ApplyResourceChange", applied.Diagnostics)
	st := attrs(t, typ, applied.NewState)
	if got := str(t, st["rfc3339"]); got != when {
		t.Errorf("rfc3339 = %q, want %q", got, when)
	}
	if y := num(t, st["year"]); y != 2021 {
		t.Errorf("year = %d, want 2021", y)
	}

	read, err := c.ReadResource(ctx(t), &tfprotov6.ReadResourceRequest{
		TypeName: "time_static", CurrentState: applied.NewState, Private: applied.Private,
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ReadResource", read.Diagnostics)
	if got := str(t, attrs(t, typ, read.NewState)["rfc3339"]); got != when {
		t.Errorf("read rfc3339 = %q, want %q", got, when)
	}

	stateValue, err := applied.NewState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	up, err := c.UpgradeResourceState(ctx(t), &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "time_static",
		Version:  s.ResourceSchemas["time_static"].Version,
		RawState: &tfprotov6.RawState{JSON: stateJSON(t, stateValue)},
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "UpgradeResourceState", up.Diagnostics)
	upgraded := attrs(t, typ, up.UpgradedState)
	if got := str(t, upgraded["rfc3339"]); got != when {
		t.Errorf("upgraded rfc3339 = %q, want %q", got, when)
	}
	if y := num(t, upgraded["year"]); y != 2021 {
		t.Errorf("upgraded year = %d, want 2021", y)
	}

	del, err := c.ApplyResourceChange(ctx(t), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "time_static", PriorState: applied.NewState, PlannedState: null, Config: null,
		PlannedPrivate: applied.Private,
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ApplyResourceChange (delete)", del.Diagnostics)
	if isNull, err := del.NewState.IsNull(); err != nil || !isNull {
		t.Errorf("state after delete: null %v, err %v", isNull, err)
	}
}

func TestTimeStaticImport(t *testing.T) {
	c, s := configured(t, Config{})
	typ := s.ResourceSchemas["time_static"].ValueType()
	r, err := c.ImportResourceState(ctx(t), &tfprotov6.ImportResourceStateRequest{TypeName: "time_static", ID: "2020-02-12T06:36:13Z"})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "ImportResourceState", r.Diagnostics)
	if len(r.ImportedResources) != 1 {
		t.Fatalf("imported %d resources, want 1", len(r.ImportedResources))
	}
	ir := r.ImportedResources[0]
	if ir.TypeName != "time_static" {
		t.Errorf("imported type %q", ir.TypeName)
	}
	st := attrs(t, typ, ir.State)
	if got := str(t, st["rfc3339"]); got != "2020-02-12T06:36:13Z" {
		t.Errorf("imported rfc3339 = %q", got)
	}
	if m := num(t, st["month"]); m != 2 {
		t.Errorf("imported month = %d, want 2", m)
	}

	// A bad ID is the provider's error: a diagnostic, not a Go error.
	bad, err := c.ImportResourceState(ctx(t), &tfprotov6.ImportResourceStateRequest{TypeName: "time_static", ID: "not a time"})
	if err != nil {
		t.Fatalf("a provider's error came as a Go error: %v", err)
	}
	if len(bad.Diagnostics) == 0 || bad.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError {
		t.Errorf("bad import ID: diagnostics %+v, want an error", bad.Diagnostics)
	}
}

func TestTimeDiagnosticAttributePath(t *testing.T) {
	c, s := configured(t, Config{})
	typ := s.ResourceSchemas["time_offset"].ValueType()
	// time_offset needs one offset_* attribute; an invalid base_rfc3339
	// is reported at that attribute.
	config := dynamic(t, typ, object(typ, map[string]tftypes.Value{
		"base_rfc3339": tftypes.NewValue(tftypes.String, "yesterday"),
		"offset_days":  tftypes.NewValue(tftypes.Number, 1),
	}))
	r, err := c.ValidateResourceConfig(ctx(t), &tfprotov6.ValidateResourceConfigRequest{TypeName: "time_offset", Config: config})
	if err != nil {
		t.Fatal(err)
	}
	want := tftypes.NewAttributePath().WithAttributeName("base_rfc3339")
	for _, d := range r.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError && d.Attribute.Equal(want) {
			return
		}
	}
	t.Errorf("no error diagnostic at %v in %+v", want, r.Diagnostics)
}

func TestTimeCallFunction(t *testing.T) {
	c, s := configured(t, Config{})
	f := s.Functions["rfc3339_parse"]
	if f == nil {
		t.Fatal("no rfc3339_parse")
	}
	arg := dynamic(t, tftypes.String, tftypes.NewValue(tftypes.String, "2023-07-25T23:43:16Z"))
	r, err := c.CallFunction(ctx(t), &tfprotov6.CallFunctionRequest{Name: "rfc3339_parse", Arguments: []*tfprotov6.DynamicValue{arg}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != nil {
		t.Fatalf("function error: %+v", r.Error)
	}
	res := attrs(t, f.Return.Type, r.Result)
	if y, h := num(t, res["year"]), num(t, res["hour"]); y != 2023 || h != 23 {
		t.Errorf("year %d hour %d, want 2023 23", y, h)
	}

	bad := dynamic(t, tftypes.String, tftypes.NewValue(tftypes.String, "not a time"))
	r, err = c.CallFunction(ctx(t), &tfprotov6.CallFunctionRequest{Name: "rfc3339_parse", Arguments: []*tfprotov6.DynamicValue{bad}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == nil || r.Error.Text == "" {
		t.Errorf("bad argument: function error %+v, want one", r.Error)
	}
}

func TestTimeLogs(t *testing.T) {
	logs := newLogLines()
	c := startTime(t, Config{Env: []string{"TF_LOG=trace"}, Log: logs.log})
	if _, err := c.GetProviderSchema(ctx(t), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	// The provider's own stderr lines come under its binary's name.
	line, ok := logs.wait("logger=terraform-provider-time", time.Minute)
	if !ok {
		t.Fatalf("no log line from the provider in %q", logs.lines)
	}
	if !strings.HasPrefix(line, "trace ") && !strings.HasPrefix(line, "debug ") && !strings.HasPrefix(line, "info ") {
		t.Errorf("provider line has no level: %q", line)
	}
	if _, ok := logs.wait("GetProviderSchema", time.Minute); !ok {
		t.Errorf("no log line of the GetProviderSchema call")
	}
}

// Without TF_LOG, the provider logs no request at trace level: Close waits
// for its stderr to be read, so every line it wrote has arrived.
func TestTimeQuietByDefault(t *testing.T) {
	logs := newLogLines()
	c := startTime(t, Config{Log: logs.log})
	if _, err := c.GetProviderSchema(ctx(t), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if line, ok := logs.find("Received request"); ok {
		t.Errorf("the provider logged a request: %q", line)
	}
}

func TestQuietLogs(t *testing.T) {
	if got := quietLogs([]string{"HOME=/x"}, nil); len(got) == 0 || !slices.Contains(got, "TF_LOG_SDK_PROTO=WARN") {
		t.Errorf("quietLogs without TF_LOG = %q", got)
	}
	for _, env := range [][]string{{"TF_LOG=debug"}, {"TF_LOG_PROVIDER_TIME=trace"}} {
		if got := quietLogs(env); got != nil {
			t.Errorf("quietLogs(%q) = %q, want the user's levels alone", env, got)
		}
	}
}

func TestTimeStopProvider(t *testing.T) {
	c := startTime(t, Config{})
	r, err := c.StopProvider(ctx(t), &tfprotov6.StopProviderRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != "" {
		t.Errorf("StopProvider: %s", r.Error)
	}
}

func TestAttachDebugProvider(t *testing.T) {
	cmd := exec.Command(timeProvider(t), "-debug")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	reattach := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if v, ok := strings.CutPrefix(line, "TF_REATTACH_PROVIDERS='"); ok {
				reattach <- strings.TrimSuffix(v, "'")
				return
			}
		}
		close(reattach)
	}()
	var all string
	select {
	case all = <-reattach:
	case <-time.After(time.Minute):
		t.Fatal("the debug provider printed no TF_REATTACH_PROVIDERS")
	}
	var byAddr map[string]json.RawMessage
	if err := json.Unmarshal([]byte(all), &byAddr); err != nil {
		t.Fatalf("%v: %q", err, all)
	}
	one := byAddr["registry.terraform.io/hashicorp/time"]
	if one == nil {
		t.Fatalf("no time provider in %s", all)
	}
	logs := newLogLines()
	c, err := Attach(ctx(t), "time", string(one), logs.log)
	if err != nil {
		t.Fatal(err)
	}
	if v := c.ProtocolVersion(); v != 5 {
		t.Errorf("ProtocolVersion() = %d, want 5", v)
	}
	s, err := c.GetProviderSchema(ctx(t), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if s.ResourceSchemas["time_static"] == nil {
		t.Error("no time_static schema")
	}
	// A debug provider ("Test" mode) outlives our Close.
	c.Close()
	c2, err := Attach(ctx(t), "time", string(one), nil)
	if err != nil {
		t.Fatalf("reattach after Close: %v", err)
	}
	defer c2.Close()
	if _, err := c2.GetMetadata(ctx(t), &tfprotov6.GetMetadataRequest{}); err != nil {
		t.Errorf("after the first Close: %v", err)
	}

	if _, err := Attach(ctx(t), "time", `{"Protocol":"grpc","ProtocolVersion":5,"Addr":{"Network":"bogus","String":"x"}}`, nil); err == nil ||
		!strings.Contains(err.Error(), "time") || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("bad reattach config: err %v", err)
	}
}
