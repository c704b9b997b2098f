package reliability

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
)

// attackCases are the hostile requests of the attack suite (issue 32):
// wrong types at every depth, deep nesting, invalid UTF-8, oversized
// values and huge arrays, monitors that refuse or never answer, Cancel
// mid-Construct, and names that would reach outside their place in
// storage. Add a row for each new attack.
func attackCases() []malformedCase {
	site := map[string]any{"indexContent": "hi"}
	self := map[string]any{"__self__": ref(siteURN)}
	rejectsWith := func(text string) func(answer) bool {
		return func(a answer) bool { return a.code != codes.OK && strings.Contains(a.message, text) }
	}
	return []malformedCase{
		// Wrong types, at every depth.
		{rpc: "Construct", what: "string for a map", input: "Site `pages: \"notamap\"`", want: "pages",
			send: construct("sitekit:index:Site", with(site, "pages", "notamap"))},
		{rpc: "Construct", what: "array for a map", input: "Site `pages: [\"a.html\"]`", want: "pages",
			send: construct("sitekit:index:Site", with(site, "pages", []any{"a.html"}))},
		{rpc: "Construct", what: "object for a map's string", input: "Site `pages: {\"a.html\": {\"x\": [1]}}`", want: `pages["a.html"]`,
			send: construct("sitekit:index:Site", with(site, "pages", map[string]any{"a.html": map[string]any{"x": []any{1}}}))},
		{rpc: "Construct", what: "string for a resource reference", input: "Mirror `source: \"www\"`", want: "source",
			send: construct("sitekit:index:Mirror", map[string]any{"source": "www"})},
		{rpc: "Call", what: "array of objects for a string", input: "pageUrl `page: [{\"x\": 1}]`", want: "page",
			send: call("sitekit:index:Site/pageUrl", with(self, "page", []any{map[string]any{"x": 1}}))},
		{rpc: "Invoke", what: "object for a string", input: "getObject `bucket: {\"k\": [\"v\"]}`", want: "bucket",
			send: invokeRaw("sitekit:index:getObject", map[string]any{"bucket": map[string]any{"k": []any{"v"}}, "key": "k"})},
		{rpc: "Check", what: "object for a map's string", input: "Bucket `labels: {\"a\": {\"b\": \"c\"}}`", want: `labels["a"]`,
			send: check(bucketURN, map[string]any{"labels": map[string]any{"a": map[string]any{"b": "c"}}})},
		{rpc: "Check", what: "nested arrays for a string", input: "BucketObject `content: [[\"x\"]]`", want: "content",
			send: check(objectURN, with(validObject, "content", []any{[]any{"x"}}))},
		{rpc: "CheckConfig", what: "object for a string", input: "`storageUrl: {\"a\": 1}`", want: "storageUrl",
			send: checkConfig(map[string]any{"storageUrl": map[string]any{"a": 1}})},
		{rpc: "Configure", what: "array for a string", input: "`storageUrl: [\"file:///x\"]`", want: "storageUrl",
			send: configure(map[string]any{"storageUrl": []any{"file:///x"}})},

		// Deep nesting.
		{rpc: "Construct", what: "4,000-deep nesting", input: "Site `pages[\"a.html\"]`: an array in an array, 4,000 deep", want: `pages["a.html"]`,
			send: construct("sitekit:index:Site", with(site, "pages", map[string]any{"a.html": nested(4000, "x")}))},
		{rpc: "Check", what: "2,000-deep nesting", input: "BucketObject `content`: an object in an object, 2,000 deep", want: "content",
			send: check(objectURN, with(validObject, "content", nestedObject(2000)))},
		{rpc: "Construct", what: "nesting deeper than protobuf reads", input: "Site `pages[\"a.html\"]`: an array in an array, 10,000 deep",
			expect: "an error saying the nesting is too deep (gRPC refuses the message before the host sees it)", ok: rejectsWith("recursion depth"),
			send: construct("sitekit:index:Site", with(site, "pages", map[string]any{"a.html": nested(10000, "x")}))},

		// Invalid UTF-8, which proto.Marshal refuses to send: written
		// into the encoded request.
		{rpc: "Construct", what: "invalid UTF-8 in a value", input: "Site `indexContent`: bytes 0xff 0xfe", expect: "an error saying the request holds invalid UTF-8",
			ok: rejectsWith("UTF-8"), send: brokenUTF8(construct("sitekit:index:Site", map[string]any{"indexContent": utf8Marker}))},
		{rpc: "Construct", what: "invalid UTF-8 in a map key", input: "Site `pages`: a key with bytes 0xff 0xfe", expect: "an error saying the request holds invalid UTF-8",
			ok: rejectsWith("UTF-8"), send: brokenUTF8(construct("sitekit:index:Site", with(site, "pages", map[string]any{utf8Marker: "x"})))},
		{rpc: "Check", what: "invalid UTF-8 in a value", input: "BucketObject `key`: bytes 0xff 0xfe", expect: "an error saying the request holds invalid UTF-8",
			ok: rejectsWith("UTF-8"), send: brokenUTF8(check(objectURN, with(validObject, "key", utf8Marker)))},
		{rpc: "Create", what: "invalid UTF-8 in a value", input: "BucketObject `key`: bytes 0xff 0xfe", expect: "an error saying the request holds invalid UTF-8",
			ok: rejectsWith("UTF-8"), send: brokenUTF8(create(objectURN, with(validObject, "key", utf8Marker)))},

		// Oversized values and huge arrays.
		{rpc: "Construct", what: "8 MiB value", input: "Site `indexContent`: an 8 MiB string", expect: "accepted",
			ok: answer.accepted, send: construct("sitekit:index:Site", map[string]any{"indexContent": strings.Repeat("x", 8<<20)})},
		{rpc: "Check", what: "20 MiB value", input: "BucketObject `content`: a 20 MiB string", expect: "accepted",
			ok: answer.accepted, send: check(objectURN, with(validObject, "content", strings.Repeat("x", 20<<20)))},
		{rpc: "Construct", what: "20 MiB value of the wrong type, another Construct beside it", input: "Site `pages`: a 20 MiB string; a valid Site at the same time, on the same connection",
			expect: "names `pages`, and the other Construct is accepted (the error is bounded: one over about 16 MB would end the connection)",
			ok:     func(a answer) bool { return a.bare().names("pages") && a.note == besideAccepted },
			send:   alongside(construct("sitekit:index:Site", with(site, "pages", strings.Repeat("x", 20<<20))))},
		{rpc: "Construct", what: "million-element array", input: "Site `indexContent`: an array of 1,000,000 numbers", want: "indexContent",
			send: construct("sitekit:index:Site", map[string]any{"indexContent": numbers(1_000_000)})},
		{rpc: "Construct", what: "10,000 pages, one bad", input: "Site `pages`: 10,000 pages, one named `../x`", want: `pages["../x"]`,
			send: construct("sitekit:index:Site", with(site, "pages", manyPages(10_000, "../x")))},

		// Monitors that refuse, or never answer.
		{rpc: "Construct", what: "monitor that refuses connections", input: "Site, `monitorEndpoint` a closed port", want: "resource monitor",
			send: onMonitor(refusingMonitor, construct("sitekit:index:Site", site))},
		{rpc: "Construct", what: "monitor that never answers", input: "Site, `monitorEndpoint` accepts and stays silent",
			expect: "an error naming the resource monitor, after one connection attempt (gRPC's 20 s)", ok: namesMonitorAfterOneDial,
			send: onMonitor(silentMonitor, construct("sitekit:index:Site", site))},
		{rpc: "Call", what: "monitor that never answers", input: "pageUrl, `monitorEndpoint` accepts and stays silent",
			expect: "an error naming the resource monitor, after one connection attempt (gRPC's 20 s)", ok: namesMonitorAfterOneDial,
			send: onMonitor(silentMonitor, call("sitekit:index:Site/pageUrl", with(self, "page", "a.html")))},
		{rpc: "Construct", what: "Cancel mid-Construct", input: "Site whose bucket registration never returns, then `Cancel`",
			expect: "the Construct ends with an error saying it was cancelled, naming the registration", ok: func(a answer) bool {
				return rejectsWith(`register child sitekit:index:Bucket "bad-bucket"`)(a) && strings.Contains(a.message, "canceled")
			},
			send: cancelMidConstruct},

		// Names that would reach outside their place in storage.
		{rpc: "Invoke", what: "the bucket's marker as an object", input: "getObject `key: \".sitekit-bucket\"` (it holds the secret accessKey)", want: "key",
			send: withBucket(func(b string) sender {
				return invokeRaw("sitekit:index:getObject", map[string]any{"bucket": b, "key": ".sitekit-bucket"})
			})},
		{rpc: "Create", what: "an object over the bucket's marker", input: "BucketObject `key: \".sitekit-bucket\"`", want: "key",
			send: withBucket(func(b string) sender {
				return create(objectURN, with(validObject, "bucket", b, "key", ".sitekit-bucket"))
			})},
		{rpc: "Create", what: "the empty key", input: "BucketObject `key: \"\"`", want: "key",
			send: withBucket(func(b string) sender { return create(objectURN, with(validObject, "bucket", b, "key", "")) })},
		{rpc: "Create", what: "a bucket inside a bucket", input: "BucketObject `bucket: \"<bucket>/sub\"`", want: "bucket",
			send: withBucket(func(b string) sender { return create(objectURN, with(validObject, "bucket", b+"/sub")) })},
		{rpc: "Read", what: "import of the bucket's marker", input: "BucketObject id `<bucket>/.sitekit-bucket`", want: "id",
			send: withBucket(func(b string) sender { return read(objectURN, b+"/.sitekit-bucket") })},
		{rpc: "Construct", what: "page named `.`", input: "Site `pages: {\".\": \"x\"}`", want: `pages["."]`,
			send: construct("sitekit:index:Site", with(site, "pages", map[string]any{".": "x"}))},

		// Secrets the host checks too eagerly.
		{rpc: "Construct", what: "secret page body equal to a word of the Site's name", input: "Site `bad`, `pages: {\"a.html\": secret \"bad\"}`",
			expect: "accepted: no child name is computed from a page body", ok: answer.accepted,
			send: construct("sitekit:index:Site", with(site, "pages", map[string]any{"a.html": map[string]any{sigKey: "1b47061264138c4ac30d75fd1eb44270", "value": "bad"}}))},
	}
}

// nested is leaf inside depth arrays.
func nested(depth int, leaf any) any {
	v := leaf
	for range depth {
		v = []any{v}
	}
	return v
}

// nestedObject is depth objects, each the only value of the next.
func nestedObject(depth int) any {
	var v any = "x"
	for range depth {
		v = map[string]any{"k": v}
	}
	return v
}

func numbers(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

// manyPages is n pages, one of them named bad.
func manyPages(n int, bad string) map[string]any {
	pages := map[string]any{bad: "x"}
	for i := range n - 1 {
		pages[fmt.Sprintf("p%d.html", i)] = "x"
	}
	return pages
}

func create(urn string, props map[string]any) sender {
	return func(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, _ string) answer {
		u := resource.URN(urn)
		_, err := c.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Name: u.Name(), Type: string(u.Type()), Properties: rawStruct(t, props)})
		return answerOf(nil, err)
	}
}

func read(urn, id string) sender {
	return func(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, _ string) answer {
		u := resource.URN(urn)
		_, err := c.Read(ctx, &pulumirpc.ReadRequest{Urn: urn, Name: u.Name(), Type: string(u.Type()), Id: id})
		return answerOf(nil, err)
	}
}

// withBucket creates a bucket, then sends what attack makes of its name.
func withBucket(attack func(bucket string) sender) sender {
	return func(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, monitor string) answer {
		resp, err := c.Create(ctx, &pulumirpc.CreateRequest{Urn: bucketURN, Name: "b", Type: "sitekit:index:Bucket", Properties: rawStruct(t, nil)})
		if err != nil {
			t.Fatalf("creating the bucket: %v", err)
		}
		return attack(resp.GetId())(ctx, t, c, monitor)
	}
}

// utf8Marker is replaced, in the encoded request, by as many bytes that
// are no UTF-8.
const utf8Marker = "UTF8-MARKER"

// brokenUTF8 sends what send sends, with utf8Marker's bytes replaced by
// invalid UTF-8 after encoding.
func brokenUTF8(send sender) sender {
	return func(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, monitor string) answer {
		return send(ctx, t, breakingClient{c}, monitor)
	}
}

// breakingClient sends every request through breakingCodec.
type breakingClient struct {
	pulumirpc.ResourceProviderClient
}

func (b breakingClient) Construct(ctx context.Context, req *pulumirpc.ConstructRequest, opts ...grpc.CallOption) (*pulumirpc.ConstructResponse, error) {
	return b.ResourceProviderClient.Construct(ctx, req, append(opts, grpc.ForceCodec(breakingCodec{}))...)
}

func (b breakingClient) Check(ctx context.Context, req *pulumirpc.CheckRequest, opts ...grpc.CallOption) (*pulumirpc.CheckResponse, error) {
	return b.ResourceProviderClient.Check(ctx, req, append(opts, grpc.ForceCodec(breakingCodec{}))...)
}

func (b breakingClient) Create(ctx context.Context, req *pulumirpc.CreateRequest, opts ...grpc.CallOption) (*pulumirpc.CreateResponse, error) {
	return b.ResourceProviderClient.Create(ctx, req, append(opts, grpc.ForceCodec(breakingCodec{}))...)
}

// breakingCodec is proto's, but writes invalid UTF-8 over utf8Marker.
type breakingCodec struct{}

func (breakingCodec) Marshal(v any) ([]byte, error) {
	b, err := proto.Marshal(v.(proto.Message))
	if err != nil {
		return nil, err
	}
	bad := bytes.Repeat([]byte{0xff, 0xfe}, len(utf8Marker))[:len(utf8Marker)]
	return bytes.ReplaceAll(b, []byte(utf8Marker), bad), nil
}

func (breakingCodec) Unmarshal(data []byte, v any) error {
	return proto.Unmarshal(data, v.(proto.Message))
}
func (breakingCodec) Name() string { return "proto" }

// A fakeMonitor is an address a monitor should answer at, and what it
// saw: the connections made to it.
type fakeMonitor func(t *testing.T) (addr string, dials *atomic.Int32)

// refusingMonitor is a closed port.
func refusingMonitor(t *testing.T) (string, *atomic.Int32) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	return addr, &atomic.Int32{}
}

// silentMonitor accepts connections and never writes a byte.
func silentMonitor(t *testing.T) (string, *atomic.Int32) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dials := &atomic.Int32{}
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				_ = c.Close()
			}
		}()
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			dials.Add(1)
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() { _ = lis.Close() })
	return lis.Addr().String(), dials
}

// onMonitor sends to the monitor mon starts instead of the test's, and
// notes how many connections it got.
func onMonitor(mon fakeMonitor, send sender) sender {
	return func(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, _ string) answer {
		addr, dials := mon(t)
		a := send(ctx, t, c, addr)
		if n := dials.Load(); n > 0 {
			a.note = fmt.Sprintf("%d connection attempt(s)", n)
		}
		return a
	}
}

// alongside sends send and, at the same time on the same connection, a
// valid Construct of another Site, whose answer it notes.
func alongside(send sender) sender {
	return func(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, monitor string) answer {
		good := &pulumirpc.ConstructRequest{
			Project: project, Stack: stack, MonitorEndpoint: monitor,
			Type: "sitekit:index:Site", Name: "good", Parent: stackURN, Inputs: rawStruct(t, map[string]any{"indexContent": "hi"}),
		}
		done := make(chan error, 1)
		go func() {
			_, err := c.Construct(ctx, good)
			done <- err
		}()
		a := send(ctx, t, c, monitor)
		a.note = besideAccepted
		if err := <-done; err != nil {
			a.note = "the Construct beside it: " + firstLine(status.Convert(err).Message())
		}
		return a
	}
}

const besideAccepted = "the Construct beside it: accepted"

func namesMonitorAfterOneDial(a answer) bool {
	return a.bare().names("resource monitor") && a.note == "1 connection attempt(s)"
}

// cancelMidConstruct constructs a Site whose bucket registration the
// monitor never answers, and sends Cancel once it is in flight.
func cancelMidConstruct(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, _ string) answer {
	mon, inflight := stallingMonitor(t, "sitekit:index:Bucket")
	res := constructAsync(c, &pulumirpc.ConstructRequest{
		Project: project, Stack: stack, MonitorEndpoint: mon.Addr(),
		Type: "sitekit:index:Site", Name: "bad", Parent: stackURN, Inputs: rawStruct(t, map[string]any{"indexContent": "hi"}),
	})
	awaitSignal(t, inflight, "the bucket registration")
	if _, err := c.Cancel(ctx, &emptypb.Empty{}); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	r := awaitConstruct(t, res)
	return answerOf(nil, r.err)
}
