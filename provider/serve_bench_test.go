package provider_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/provider"
)

// BenchmarkServeObject is what the engine asks of the plugin for each new
// page of a Site: a Check of a BucketObject, then a Create of the checked
// inputs, over loopback against mem:// storage. "serve" is the plugin as
// host.Serve serves it; "newserver" is hosttest.NewServer on a plain gRPC
// server, as the Go SDK peer (tests/peer) serves the same code. The
// allocations include the client's, which are the same in both.
func BenchmarkServeObject(b *testing.B) {
	for _, how := range []string{"serve", "newserver"} {
		b.Run(how, func(b *testing.B) {
			p, err := host.New(provider.Name, provider.Options("0.1.0")...)
			if err != nil {
				b.Fatal(err)
			}
			var addr string
			if how == "serve" {
				addr = serveForBench(b, p)
			} else {
				g := grpc.NewServer()
				pulumirpc.RegisterResourceProviderServer(g, hosttest.NewServer(p))
				lis, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				go func() { _ = g.Serve(lis) }()
				b.Cleanup(g.Stop)
				addr = lis.Addr().String()
			}
			c, name := benchBucket(b, addr, "mem://")
			ctx := context.Background()
			i := 0
			for b.Loop() {
				i++
				page := fmt.Sprintf("page%05d", i)
				news, _ := structpb.NewStruct(map[string]any{"bucket": name, "key": "pages/" + page, "content": "<p>" + page + "</p>"})
				u := benchStack + "sitekit:index:BucketObject::site-" + page
				chk, err := c.Check(ctx, &pulumirpc.CheckRequest{Urn: u, Name: "site-" + page, Type: "sitekit:index:BucketObject", News: news, RandomSeed: []byte{1, 2, 3}})
				if err != nil || len(chk.GetFailures()) > 0 {
					b.Fatal(err, chk.GetFailures())
				}
				if _, err := c.Create(ctx, &pulumirpc.CreateRequest{Urn: u, Name: "site-" + page, Type: "sitekit:index:BucketObject", Properties: chk.GetInputs()}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchStack is the URN prefix of the benchmarks' resources.
const benchStack = "urn:pulumi:dev::bench::sitekit:index:Site$"

// benchBucket connects to the plugin at addr, configures it with
// storageURL and creates a Bucket, whose name it returns.
func benchBucket(b *testing.B, addr, storageURL string, opts ...grpc.DialOption) (pulumirpc.ResourceProviderClient, string) {
	conn, err := grpc.NewClient(addr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	c := pulumirpc.NewResourceProviderClient(conn)
	ctx := context.Background()
	args, _ := structpb.NewStruct(map[string]any{"storageUrl": storageURL})
	if _, err := c.Configure(ctx, &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true, AcceptResources: true}); err != nil {
		b.Fatal(err)
	}
	bucket, err := c.Create(ctx, &pulumirpc.CreateRequest{Urn: benchStack + "sitekit:index:Bucket::b", Name: "b", Type: "sitekit:index:Bucket", Properties: &structpb.Struct{}})
	if err != nil {
		b.Fatal(err)
	}
	return c, bucket.GetProperties().GetFields()["bucketName"].GetStringValue()
}

// serveForBench runs host.Serve(p) waiting for the engine to attach (it
// never does) and returns its address.
func serveForBench(b *testing.B, p *host.Provider) string {
	ctx, cancel := context.WithCancel(context.Background())
	w := &portLine{c: make(chan string, 1)}
	done := make(chan error, 1)
	go func() { done <- host.Serve(ctx, p, nil, w) }()
	b.Cleanup(func() { cancel(); <-done })
	select {
	case port := <-w.c:
		return "127.0.0.1:" + port
	case err := <-done:
		b.Fatalf("serve: %v", err)
		return ""
	}
}

// portLine hands the first line written to it, the port, to a channel.
type portLine struct {
	once sync.Once
	c    chan string
}

func (w *portLine) Write(b []byte) (int, error) {
	w.once.Do(func() { w.c <- strings.TrimSpace(string(b)) })
	return len(b), nil
}
