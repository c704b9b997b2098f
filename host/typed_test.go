package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

// The lamp package: a Bulb with Create alone, a Lamp with all six
// methods, and a function; each reads its instance's configuration and
// logs.

type lampConfig struct {
	Room string `pulumi:"room,optional"`
}

type lampArgs struct {
	Watts int            `pulumi:"watts"`
	Color string         `pulumi:"color,optional"`
	Label property.Value `pulumi:"label,optional,type=string"`
}

type lampState struct {
	Watts int            `pulumi:"watts"`
	Color string         `pulumi:"color,optional"`
	Label property.Value `pulumi:"label,optional,type=string"`
	Room  string         `pulumi:"room"`
	Glow  string         `pulumi:"glow"` // computed from watts and color
}

func lampOf(ctx context.Context, in lampArgs) lampState {
	room := host.Config[lampConfig](ctx).Room
	return lampState{Watts: in.Watts, Color: in.Color, Label: in.Label, Room: room, Glow: fmt.Sprintf("%s@%d", in.Color, in.Watts)}
}

// bulb has Create alone.
type bulb struct{}

func (bulb) Create(ctx context.Context, req custom.TypedCreateRequest[lampArgs]) (custom.TypedCreateResponse[lampState], error) {
	out := lampOf(ctx, req.Inputs)
	host.Logger(ctx).Info("bulb lit", "room", out.Room)
	return custom.TypedCreateResponse[lampState]{ID: resource.ID(req.Name), Outputs: out}, nil
}

// lamp has all six methods and records what each was given.
type lamp struct{ calls *calls }

type calls struct {
	mu  sync.Mutex
	log []string
}

func (c *calls) add(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, fmt.Sprintf(format, args...))
}

func (c *calls) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.log)
}

func (l lamp) Check(ctx context.Context, req custom.TypedCheckRequest[lampArgs]) (custom.TypedCheckResponse[lampArgs], error) {
	l.calls.add("check in %s old=%d new=%d", host.Config[lampConfig](ctx).Room, req.OldInputs.Watts, req.Inputs.Watts)
	in := req.Inputs
	if in.Watts <= 0 {
		return custom.TypedCheckResponse[lampArgs]{Failures: []diag.CheckFailure{{Property: "watts", Reason: "must be positive"}}}, nil
	}
	if in.Color == "" {
		in.Color = "white"
	}
	return custom.TypedCheckResponse[lampArgs]{Inputs: in}, nil
}

func (l lamp) Diff(ctx context.Context, req custom.TypedDiffRequest[lampArgs, lampState]) (custom.DiffResponse, error) {
	l.calls.add("diff in %s %s->%s glow=%s", host.Config[lampConfig](ctx).Room, req.OldInputs.Color, req.Inputs.Color, req.OldOutputs.Glow)
	switch {
	case req.OldInputs.Color != req.Inputs.Color:
		return custom.DiffResponse{HasChanges: true, Changes: map[string]custom.DiffKind{"color": custom.DiffUpdateReplace}, Replaces: []string{"color"}}, nil
	case req.OldInputs.Watts != req.Inputs.Watts:
		return custom.DiffResponse{HasChanges: true, Changes: map[string]custom.DiffKind{"watts": custom.DiffUpdate}}, nil
	}
	return custom.DiffResponse{}, nil
}

func (l lamp) Create(ctx context.Context, req custom.TypedCreateRequest[lampArgs]) (custom.TypedCreateResponse[lampState], error) {
	l.calls.add("create %d", req.Inputs.Watts)
	return custom.TypedCreateResponse[lampState]{ID: resource.ID(req.Name), Outputs: lampOf(ctx, req.Inputs)}, nil
}

func (l lamp) Read(ctx context.Context, req custom.TypedReadRequest[lampArgs, lampState]) (custom.TypedReadResponse[lampArgs, lampState], error) {
	l.calls.add("read %s glow=%s", req.ID, req.Outputs.Glow)
	if req.ID == "gone" {
		return custom.TypedReadResponse[lampArgs, lampState]{}, nil
	}
	return custom.TypedReadResponse[lampArgs, lampState]{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (l lamp) Update(ctx context.Context, req custom.TypedUpdateRequest[lampArgs, lampState]) (custom.TypedUpdateResponse[lampState], error) {
	l.calls.add("update %d->%d glow=%s", req.OldInputs.Watts, req.Inputs.Watts, req.OldOutputs.Glow)
	host.Logger(ctx).Warn("lamp dimmed", "watts", req.Inputs.Watts)
	return custom.TypedUpdateResponse[lampState]{Outputs: lampOf(ctx, req.Inputs)}, nil
}

func (l lamp) Delete(ctx context.Context, req custom.TypedDeleteRequest[lampArgs, lampState]) (custom.DeleteResponse, error) {
	l.calls.add("delete %s watts=%d glow=%s", req.ID, req.Inputs.Watts, req.Outputs.Glow)
	return custom.DeleteResponse{}, nil
}

type roomArgs struct {
	Greeting string `pulumi:"greeting"`
}

type roomResult struct {
	Text string `pulumi:"text"`
}

// whereAmI answers with its instance's room.
func whereAmI(ctx context.Context, args roomArgs) (roomResult, error) {
	room := host.Config[lampConfig](ctx).Room
	host.Logger(ctx).Info("asked where", "room", room)
	return roomResult{Text: args.Greeting + " from " + room}, nil
}

const (
	bulbType = "lamp:index:Bulb"
	lampType = "lamp:index:Lamp"
)

func lampHarness(t *testing.T, c *calls) *hosttest.Harness {
	t.Helper()
	p, err := host.New("lamp",
		host.WithConfig(func(ctx context.Context, cfg lampConfig) error {
			if got := host.Config[lampConfig](ctx); got != cfg {
				return fmt.Errorf("host.Config in configure = %+v, want %+v", got, cfg)
			}
			host.Logger(ctx).Debug("configured", "room", cfg.Room)
			return nil
		}),
		host.WithTypedResource(bulbType, bulb{}),
		host.WithTypedResource(lampType, lamp{c}),
		host.WithFunction("lamp:index:whereAmI", whereAmI))
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.New(t, p)
}

func lampInputs(watts int, color string) property.Map {
	m := map[string]property.Value{"watts": property.New(float64(watts))}
	if color != "" {
		m["color"] = property.New(color)
	}
	return property.NewMap(m)
}

func room(r string) property.Map {
	return property.NewMap(map[string]property.Value{"room": property.New(r)})
}

// A typed resource with Create alone: a change replaces it, a refresh
// keeps what is recorded, an import fails, and deleting only forgets it.
func TestTypedResourceCreateOnly(t *testing.T) {
	t.Parallel()
	h := lampHarness(t, &calls{})
	ctx := context.Background()
	if err := h.Configure(ctx, room("den")); err != nil {
		t.Fatal(err)
	}
	b, err := h.Create(ctx, hosttest.CreateRequest{Type: bulbType, Name: "b1", Inputs: lampInputs(40, "red")})
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != "b1" || b.Outputs.Get("room").AsString() != "den" || b.Outputs.Get("glow").AsString() != "red@40" {
		t.Fatalf("created %s %v", b.ID, b.Outputs)
	}
	diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: b, Inputs: lampInputs(60, "red")})
	if err != nil {
		t.Fatal(err)
	}
	if !diff.HasChanges || diff.Changes["watts"] != custom.DiffUpdateReplace || !slices.Equal(diff.Replaces, []string{"watts"}) {
		t.Errorf("diff without Update = %+v, want watts to replace", diff)
	}
	if diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: b, Inputs: lampInputs(40, "red")}); err != nil || diff.HasChanges {
		t.Errorf("diff of the same inputs = %+v, %v; want none", diff, err)
	}
	read, err := h.Read(ctx, b)
	if err != nil || read.ID != b.ID || !read.Outputs.Equals(b.Outputs) || !read.Inputs.Equals(b.Inputs) {
		t.Errorf("refresh without Read = %+v, %v; want the recorded state", read, err)
	}
	_, err = h.Read(ctx, hosttest.Resource{URN: b.URN, ID: "b1"})
	if err == nil || !strings.Contains(err.Error(), "cannot be imported: its backend has no Read") {
		t.Errorf("import without Read: %v, want it refused", err)
	}
	if err := h.Delete(ctx, b); err != nil {
		t.Errorf("delete without Delete: %v", err)
	}
	var logged bool
	for _, l := range h.Monitor.Logs() {
		if l.URN == b.URN && l.Severity == monitorclient.SeverityInfo && l.Message == "bulb lit room=den" {
			logged = true
		}
	}
	if !logged {
		t.Errorf("logs %+v lack Create's line on %s", h.Monitor.Logs(), b.URN)
	}
}

// A typed resource with all six methods gets typed requests: the new
// inputs as Check left them, and the old inputs and outputs decoded.
func TestTypedResourceAllSix(t *testing.T) {
	t.Parallel()
	c := &calls{}
	h := lampHarness(t, c)
	ctx := context.Background()
	if err := h.Configure(ctx, room("den")); err != nil {
		t.Fatal(err)
	}
	_, err := h.Create(ctx, hosttest.CreateRequest{Type: lampType, Name: "dark", Inputs: lampInputs(0, "")})
	var ie *diag.InputError
	if !errors.As(err, &ie) || len(ie.Failures) != 1 || ie.Failures[0].Property != "watts" {
		t.Fatalf("create with 0 watts: %v, want a failure on watts", err)
	}
	l, err := h.Create(ctx, hosttest.CreateRequest{Type: lampType, Name: "l1", Inputs: lampInputs(40, "")})
	if err != nil {
		t.Fatal(err)
	}
	if l.Inputs.Get("color").AsString() != "white" || l.Outputs.Get("glow").AsString() != "white@40" {
		t.Errorf("created %v %v, want Check's default color", l.Inputs, l.Outputs)
	}
	diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: l, Inputs: lampInputs(60, "white")})
	if err != nil || diff.Changes["watts"] != custom.DiffUpdate || len(diff.Replaces) > 0 {
		t.Errorf("diff of watts = %+v, %v; want an update", diff, err)
	}
	diff, err = h.Diff(ctx, hosttest.UpdateRequest{Resource: l, Inputs: lampInputs(40, "blue")})
	if err != nil || !slices.Equal(diff.Replaces, []string{"color"}) {
		t.Errorf("diff of color = %+v, %v; want a replace", diff, err)
	}
	l, err = h.Update(ctx, hosttest.UpdateRequest{Resource: l, Inputs: lampInputs(60, "white")})
	if err != nil || l.Outputs.Get("glow").AsString() != "white@60" {
		t.Fatalf("update: %+v, %v", l, err)
	}
	if read, err := h.Read(ctx, l); err != nil || !read.Outputs.Equals(l.Outputs) {
		t.Errorf("read = %+v, %v; want %v", read, err, l.Outputs)
	}
	if gone, err := h.Read(ctx, hosttest.Resource{URN: l.URN, ID: "gone"}); err != nil || gone.ID != "" {
		t.Errorf("read of a gone lamp = %+v, %v; want no ID", gone, err)
	}
	if err := h.Delete(ctx, l); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"check in den old=0 new=0",
		"check in den old=0 new=40", "create 40",
		"check in den old=40 new=60", "diff in den white->white glow=white@40",
		"check in den old=40 new=40", "diff in den white->blue glow=white@40",
		"check in den old=40 new=60", "update 40->60 glow=white@40",
		"read l1 glow=white@60",
		"read gone glow=",
		"delete l1 watts=60 glow=white@60",
	}
	if got := c.all(); !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A property.Value field keeps its secret exactly; a secret that reaches a
// plain field makes every output secret, with a warning naming it.
func TestTypedResourceSecrets(t *testing.T) {
	t.Parallel()
	h := lampHarness(t, &calls{})
	ctx := context.Background()
	in := lampInputs(40, "red").Set("label", property.New("hall").WithSecret(true))
	b, err := h.Create(ctx, hosttest.CreateRequest{Type: bulbType, Name: "exact", Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range b.Outputs.All {
		if v.Secret() != (k == "label") {
			t.Errorf("%s = %v: want only label secret", k, v)
		}
	}
	in = lampInputs(40, "").Set("color", property.New("red").WithSecret(true))
	b, err = h.Create(ctx, hosttest.CreateRequest{Type: bulbType, Name: "lost", Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range b.Outputs.All {
		if !v.Secret() {
			t.Errorf("%s = %v: want every output secret, a secret reached a plain field", k, v)
		}
	}
	var warned bool
	for _, l := range h.Monitor.Logs() {
		if l.URN == b.URN && l.Severity == monitorclient.SeverityWarning && strings.Contains(l.Message, "color") {
			warned = true
		}
		if strings.Contains(l.Message, "hall") || strings.Contains(l.Message, "red@") {
			t.Errorf("a log shows a secret: %q", l.Message)
		}
	}
	if !warned {
		t.Errorf("no warning naming color in %+v", h.Monitor.Logs())
	}
}

// Two differently configured instances of one plugin in one process: each
// CRUD call and function sees its own instance's configuration, and logs
// on the right resource.
func TestRequestContextPerInstance(t *testing.T) {
	t.Parallel()
	c := &calls{}
	h := lampHarness(t, c)
	ctx := context.Background()
	if err := h.Configure(ctx, room("den")); err != nil {
		t.Fatal(err)
	}
	kitchen, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "kitchen", Config: room("kitchen")})
	if err != nil {
		t.Fatal(err)
	}
	hall, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "hall", Config: room("hall")})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	made := map[string]hosttest.Resource{}
	var mu sync.Mutex
	for name, prov := range map[string]hosttest.Resource{"kitchen": {Provider: kitchen}, "hall": {Provider: hall}, "den": {}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := h.Create(ctx, hosttest.CreateRequest{Type: lampType, Name: "in-" + name, Inputs: lampInputs(40, ""), Provider: prov.Provider})
			if err != nil {
				t.Error(err)
				return
			}
			l, err = h.Update(ctx, hosttest.UpdateRequest{Resource: l, Inputs: lampInputs(20, "")})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			made[name] = l
			mu.Unlock()
		}()
	}
	wg.Wait()
	for name, l := range made {
		if got := l.Outputs.Get("room").AsString(); got != name {
			t.Errorf("lamp of the %s provider has room %q", name, got)
		}
		var logged bool
		for _, g := range h.Monitor.Logs() {
			if g.URN == l.URN && g.Severity == monitorclient.SeverityWarning && g.Message == "lamp dimmed watts=20" {
				logged = true
			}
		}
		if !logged {
			t.Errorf("no Update log on %s", l.URN)
		}
	}
	for _, room := range []string{"den", "kitchen", "hall"} {
		if !slices.Contains(c.all(), "check in "+room+" old=40 new=20") {
			t.Errorf("no Check of the update on the %s instance in %q", room, c.all())
		}
	}
	// The default instance was configured first; the function it serves
	// still sees its own room.
	res, err := h.Invoke(ctx, "lamp:index:whereAmI", property.NewMap(map[string]property.Value{"greeting": property.New("hi")}))
	if err != nil || res.Return.Get("text").AsString() != "hi from den" {
		t.Errorf("whereAmI = %v, %v; want hi from den", res.Return, err)
	}
	var logged bool
	for _, g := range h.Monitor.Logs() {
		if g.URN == "" && g.Message == "asked where room=den" {
			logged = true
		}
	}
	if !logged {
		t.Errorf("no log of the function in %+v", h.Monitor.Logs())
	}
}

// host.Config with a type that is not WithConfig's names both.
func TestConfigWrongType(t *testing.T) {
	t.Parallel()
	p, err := host.New("lamp",
		host.WithConfig(func(context.Context, lampConfig) error { return nil }),
		host.WithFunction("lamp:index:whereAmI", func(ctx context.Context, args roomArgs) (roomResult, error) {
			return roomResult{Text: host.Config[roomArgs](ctx).Greeting}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	_, err = h.Invoke(context.Background(), "lamp:index:whereAmI", property.NewMap(map[string]property.Value{"greeting": property.New("hi")}))
	if err == nil || !strings.Contains(err.Error(), "host_test.roomArgs") || !strings.Contains(err.Error(), "host_test.lampConfig") {
		t.Errorf("host.Config of the wrong type: %v, want an error naming both types", err)
	}
}

// A panic in the configuration's function fails Configure with a clear
// error, which, like the log of its stack, does not show a secret value.
func TestConfigurePanicRedacted(t *testing.T) {
	t.Parallel()
	p, err := host.New("lamp", host.WithConfig(func(ctx context.Context, cfg lampConfig) error {
		panic("no such room " + cfg.Room)
	}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	err = h.Configure(context.Background(), property.NewMap(map[string]property.Value{"room": property.New("vault-9").WithSecret(true)}))
	if err == nil || !strings.Contains(err.Error(), "configure: panic in configuration code: no such room [secret]") {
		t.Errorf("configure error %v: want the panic, the room redacted", err)
	}
	noLogShows(t, h, "vault-9")
}

// noLogShows fails t if a line logged to h's engine shows secret.
func noLogShows(t *testing.T, h *hosttest.Harness, secret string) {
	t.Helper()
	for _, l := range h.Monitor.Logs() {
		if strings.Contains(l.Message, secret) {
			t.Errorf("a log shows the secret: %q", l.Message)
		}
	}
}

type roomOut struct {
	Text string `pulumi:"text"`
}

// What a function, a component or a method computes from the provider's
// secret configuration is secret, and their errors do not show it.
func TestSecretConfigNeverLeaks(t *testing.T) {
	t.Parallel()
	fail := func(ctx context.Context, greeting string) (roomOut, error) {
		room := host.Config[lampConfig](ctx).Room
		if greeting == "fail" {
			return roomOut{}, fmt.Errorf("denied in room %s", room)
		}
		return roomOut{Text: greeting + " from " + room}, nil
	}
	p, err := host.New("lamp",
		host.WithConfig(func(context.Context, lampConfig) error { return nil }),
		host.WithFunction("lamp:index:whereAmI", func(ctx context.Context, args roomArgs) (roomOut, error) {
			return fail(ctx, args.Greeting)
		}),
		host.WithComponent("lamp:index:Room", func(ctx context.Context, c *host.Component, args roomArgs) (roomOut, error) {
			return fail(ctx, args.Greeting)
		}),
		host.WithMethod("lamp:index:Room/where", func(ctx context.Context, self *host.Component, args roomArgs) (roomOut, error) {
			return fail(ctx, args.Greeting)
		}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"room": property.New("vault-9").WithSecret(true)})); err != nil {
		t.Fatal(err)
	}
	greet := func(g string) property.Map {
		return property.NewMap(map[string]property.Value{"greeting": property.New(g)})
	}
	res, err := h.Invoke(ctx, "lamp:index:whereAmI", greet("hi"))
	if err != nil || !res.Return.Get("text").Secret() {
		t.Errorf("function result %v, %v: want text secret", res.Return, err)
	}
	if _, err := h.Invoke(ctx, "lamp:index:whereAmI", greet("fail")); err == nil || strings.Contains(err.Error(), "vault-9") {
		t.Errorf("function error %v: want one without the secret", err)
	}
	comp, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "lamp:index:Room", Name: "r", Inputs: greet("hi")})
	if err != nil || !comp.Outputs.Get("text").Secret() {
		t.Errorf("component outputs %v, %v: want text secret", comp.Outputs, err)
	}
	if _, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "lamp:index:Room", Name: "bad", Inputs: greet("fail")}); err == nil || strings.Contains(err.Error(), "vault-9") {
		t.Errorf("component error %v: want one without the secret", err)
	}
	call, err := h.Call(ctx, hosttest.CallRequest{Token: "lamp:index:Room/where", Self: comp.URN, Args: greet("hi")})
	if err != nil || !call.Return.Get("text").Secret() {
		t.Errorf("method result %v, %v: want text secret", call.Return, err)
	}
	if _, err := h.Call(ctx, hosttest.CallRequest{Token: "lamp:index:Room/where", Self: comp.URN, Args: greet("fail")}); err == nil || strings.Contains(err.Error(), "vault-9") {
		t.Errorf("method error %v: want one without the secret", err)
	}
	noLogShows(t, h, "vault-9")
}

// A safe's state tells nothing of its code: only its inputs hold it.
type safeArgs struct {
	Code  string `pulumi:"code"`
	Watts int    `pulumi:"watts,optional"`
}

type safeState struct {
	Open bool `pulumi:"open"`
}

// safe has every method but Diff: Check and Read fill no inputs, Update
// refuses to leave its old code, Delete panics with the code.
type safe struct{}

func (safe) Check(ctx context.Context, req custom.TypedCheckRequest[safeArgs]) (custom.TypedCheckResponse[safeArgs], error) {
	return custom.TypedCheckResponse[safeArgs]{}, nil
}

func (safe) Create(ctx context.Context, req custom.TypedCreateRequest[safeArgs]) (custom.TypedCreateResponse[safeState], error) {
	return custom.TypedCreateResponse[safeState]{ID: resource.ID(req.Name)}, nil
}

func (safe) Update(ctx context.Context, req custom.TypedUpdateRequest[safeArgs, safeState]) (custom.TypedUpdateResponse[safeState], error) {
	return custom.TypedUpdateResponse[safeState]{}, fmt.Errorf("cannot leave code %s", req.OldInputs.Code)
}

func (safe) Read(ctx context.Context, req custom.TypedReadRequest[safeArgs, safeState]) (custom.TypedReadResponse[safeArgs, safeState], error) {
	return custom.TypedReadResponse[safeArgs, safeState]{ID: req.ID, Outputs: safeState{Open: true}}, nil
}

func (safe) Delete(ctx context.Context, req custom.TypedDeleteRequest[safeArgs, safeState]) (custom.DeleteResponse, error) {
	panic("stuck at code " + req.Inputs.Code)
}

// hatch has Create and a Diff that sees a change but does not say where.
type hatch struct{}

func (hatch) Create(ctx context.Context, req custom.TypedCreateRequest[safeArgs]) (custom.TypedCreateResponse[safeState], error) {
	return custom.TypedCreateResponse[safeState]{ID: resource.ID(req.Name)}, nil
}

func (hatch) Diff(ctx context.Context, req custom.TypedDiffRequest[safeArgs, safeState]) (custom.DiffResponse, error) {
	return custom.DiffResponse{HasChanges: true}, nil
}

// newSafe serves the safe package and creates a resource of type typ
// with inputs.
func newSafe(t *testing.T, typ string, inputs property.Map) (*hosttest.Harness, hosttest.Resource) {
	t.Helper()
	p, err := host.New("safe",
		host.WithTypedResource("safe:index:Safe", safe{}),
		host.WithTypedResource("safe:index:Hatch", hatch{}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	r, err := h.Create(context.Background(), hosttest.CreateRequest{Type: typ, Name: "v", Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	return h, r
}

func safeInputs(code string, secret bool) property.Map {
	return property.NewMap(map[string]property.Value{"code": property.New(code).WithSecret(secret), "watts": property.New(40.0)})
}

// An Update's error does not show a secret of the old inputs, though
// neither the new inputs nor the state hold it.
func TestTypedUpdateErrorRedactsOldInputs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, v := newSafe(t, "safe:index:Safe", safeInputs("s3same", true))
	v.Outputs = property.Map{} // what the state would be, had no secret reached a plain field
	_, err := h.Update(ctx, hosttest.UpdateRequest{Resource: v, Inputs: safeInputs("open", false)})
	if err == nil || strings.Contains(err.Error(), "s3same") || !strings.Contains(err.Error(), "cannot leave code") {
		t.Errorf("update error %v: want the old code redacted", err)
	}
}

// A typed Check or Read that fills no Inputs keeps the request's.
func TestTypedReadWithoutInputsKeepsThem(t *testing.T) {
	t.Parallel()
	h, v := newSafe(t, "safe:index:Safe", safeInputs("open", false))
	if !v.Inputs.Equals(safeInputs("open", false)) {
		t.Fatalf("created %+v; want Check to keep the inputs", v)
	}
	read, err := h.Read(context.Background(), v)
	if err != nil || !read.Inputs.Equals(v.Inputs) || !read.Outputs.Get("open").AsBool() {
		t.Errorf("read = %+v, %v; want the inputs %v kept and open true", read, err, v.Inputs)
	}
}

// A panic in a typed backend fails that call with a clear error, and
// neither it nor the log of its stack shows a secret input.
func TestTypedPanicRedacted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, v := newSafe(t, "safe:index:Safe", safeInputs("s3same", true))
	err := h.Delete(ctx, v)
	if err == nil || strings.Contains(err.Error(), "s3same") || !strings.Contains(err.Error(), "delete: panic in custom resource code: stuck at code [secret]") {
		t.Errorf("delete error %v: want the panic, the code redacted", err)
	}
	noLogShows(t, h, "s3same")
}

// Without Update, a Diff that sees a change but names no property still
// replaces the resource: the engine would otherwise call Update.
func TestDiffWithoutDetailReplaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, v := newSafe(t, "safe:index:Hatch", safeInputs("open", false))
	diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: v, Inputs: safeInputs("open", false)})
	if err != nil || !diff.HasChanges || !slices.Equal(diff.Replaces, []string{"code", "watts"}) {
		t.Errorf("diff = %+v, %v; want every input to replace", diff, err)
	}
	diff, err = h.Diff(ctx, hosttest.UpdateRequest{Resource: v, Inputs: safeInputs("shut", false)})
	if err != nil || !slices.Equal(diff.Replaces, []string{"code"}) {
		t.Errorf("diff of code = %+v, %v; want code to replace", diff, err)
	}
}

type petArgs struct {
	Nick string `pulumi:"nick,optional"`
}

// pet keeps nothing: no input is required and its outputs may be empty.
type pet struct{}

func (pet) Create(ctx context.Context, req custom.TypedCreateRequest[petArgs]) (custom.TypedCreateResponse[petArgs], error) {
	return custom.TypedCreateResponse[petArgs]{ID: "pet-1", Outputs: req.Inputs}, nil
}

// Without Read, a refresh keeps what is recorded, also when that is
// nothing: a resource whose schema requires nothing may record empty
// inputs and outputs (issue 38, item 2). A resource that must record
// something and has nothing is being imported, and that is refused.
func TestRefreshWithoutReadKeepsAnEmptyState(t *testing.T) {
	t.Parallel()
	p, err := host.New("zoo", host.WithTypedResource("zoo:index:Pet", pet{}), host.WithTypedResource("zoo:index:Bulb", bulb{}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	if err := h.Configure(ctx, property.Map{}); err != nil {
		t.Fatal(err)
	}
	pt, err := h.Create(ctx, hosttest.CreateRequest{Type: "zoo:index:Pet", Name: "call-pet", Inputs: property.Map{}})
	if err != nil || pt.Inputs.Len() != 0 || pt.Outputs.Len() != 0 {
		t.Fatalf("create = %+v, %v; want an empty state", pt, err)
	}
	read, err := h.Read(ctx, pt)
	if err != nil || read.ID != pt.ID || read.Inputs.Len() != 0 || read.Outputs.Len() != 0 {
		t.Errorf("refresh of an empty state without Read = %+v, %v; want it kept", read, err)
	}
	_, err = h.Read(ctx, hosttest.Resource{URN: "urn:pulumi:dev::p::zoo:index:Bulb::b", ID: "b"})
	if err == nil || !strings.Contains(err.Error(), "cannot be imported: its backend has no Read") {
		t.Errorf("import of a Bulb (watts required) without Read: %v, want it refused", err)
	}
}
