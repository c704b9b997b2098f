package provider_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/provider"
)

// BenchmarkLargeObject is one 50 MB page of a Site as the engine sends
// it: a Check of a BucketObject whose content is 50 MB, then a Create of
// the checked inputs, over loopback against file storage, plain and
// secret. B/input-byte is what the client and the plugin allocate per
// byte of the content (the client's share: its request and the answer,
// about 4 bytes a byte); MiB-heap is the live heap after the Create, the
// store's copy of the object included.
func BenchmarkLargeObject(b *testing.B) {
	const size = 50 << 20
	content := strings.Repeat("x", size)
	for _, secret := range []bool{false, true} {
		name := "plain"
		if secret {
			name = "secret"
		}
		b.Run(name, func(b *testing.B) {
			p, err := host.New(provider.Name, provider.Options("0.1.0")...)
			if err != nil {
				b.Fatal(err)
			}
			c, bucket := benchBucket(b, serveForBench(b, p), "file://"+b.TempDir(),
				grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
			ctx := context.Background()
			body := resource.NewProperty(content)
			if secret {
				body = resource.MakeSecret(body)
			}
			news, err := plugin.MarshalProperties(resource.PropertyMap{
				"bucket":  resource.NewProperty(bucket),
				"key":     resource.NewProperty("pages/big.html"),
				"content": body,
			}, plugin.MarshalOptions{KeepSecrets: true})
			if err != nil {
				b.Fatal(err)
			}
			const u = benchStack + "sitekit:index:BucketObject::big"
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for b.Loop() {
				chk, err := c.Check(ctx, &pulumirpc.CheckRequest{Urn: u, Name: "big", Type: "sitekit:index:BucketObject", News: news, RandomSeed: []byte{1, 2, 3}})
				if err != nil || len(chk.GetFailures()) > 0 {
					b.Fatal(err, chk.GetFailures())
				}
				if _, err := c.Create(ctx, &pulumirpc.CreateRequest{Urn: u, Name: "big", Type: "sitekit:index:BucketObject", Properties: chk.GetInputs()}); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/size, "B/input-byte")
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "MiB-heap")
		})
	}
}
