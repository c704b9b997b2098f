package reliability

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/hosttest"
)

// BenchmarkConstructLargeInput is the Construct half of a 50 MB input:
// the shipped plugin, as its own process, configured and then sent one
// Construct of a Site whose indexContent is 50 MB, plain and secret,
// against the fake monitor. Each iteration starts a fresh plugin, since
// the kernel's peak RSS (VmHWM) only grows. peak-MiB is the plugin's peak
// RSS after the Construct; rss-B/input-B its growth over the configured
// plugin's peak, per byte of indexContent.
func BenchmarkConstructLargeInput(b *testing.B) {
	skipUnderRace(b)
	const size = 50 << 20
	content := strings.Repeat("x", size)
	for _, secret := range []bool{false, true} {
		name := "plain"
		if secret {
			name = "secret"
		}
		b.Run(name, func(b *testing.B) {
			body := resource.NewProperty(content)
			if secret {
				body = resource.MakeSecret(body)
			}
			inputs := mustStruct(b, resource.PropertyMap{"indexContent": body})
			var grown, peak float64
			for i := 0; b.Loop(); i++ {
				mon := hosttest.Start(b, hosttest.WithRegisterHook(fakeSitekit))
				p := startPlugin(b, pluginBin, mon.Addr())
				p.configure(b, map[string]any{"storageUrl": "mem://"})
				before := vmHWM(b, p.cmd.Process.Pid)
				site, err := p.client.Construct(context.Background(), &pulumirpc.ConstructRequest{
					Project: project, Stack: stack, MonitorEndpoint: mon.Addr(),
					Type: "sitekit:index:Site", Name: fmt.Sprintf("big%d", i), Parent: stackURN, Inputs: inputs,
				})
				if err != nil {
					b.Fatalf("construct: %v\nplugin stderr:\n%s", err, p.stderr)
				}
				after := vmHWM(b, p.cmd.Process.Pid)
				if !indexRegistered(mon, size, secret) {
					b.Fatalf("no BucketObject of %d bytes (secret %v) registered; site %v", size, secret, site.GetUrn())
				}
				p.stop()
				grown += float64(after - before)
				peak += float64(after)
			}
			b.ReportMetric(peak/float64(b.N)/(1<<20), "peak-MiB")
			b.ReportMetric(grown/float64(b.N)/size, "rss-B/input-B")
		})
	}
}

// BenchmarkCRUDLargeInput is the CRUD half of a 50 MB input: the shipped
// plugin, as its own process, configured with storage, then sent the Check
// and the Create of a BucketObject whose content is 50 MB, plain and
// secret, as the engine sends them (Create gets what Check answered), in
// file storage, whose copy is on disk, and in mem:// storage, which keeps
// one in memory. A fresh plugin per iteration, as in
// BenchmarkConstructLargeInput; the metrics are the same.
func BenchmarkCRUDLargeInput(b *testing.B) {
	skipUnderRace(b)
	const size = 50 << 20
	content := strings.Repeat("x", size)
	for _, storage := range []string{"file", "mem"} {
		for _, secret := range []bool{false, true} {
			name := storage + "/plain"
			if secret {
				name = storage + "/secret"
			}
			b.Run(name, func(b *testing.B) {
				body := resource.NewProperty(content)
				if secret {
					body = resource.MakeSecret(body)
				}
				var grown, peak float64
				for b.Loop() {
					url := "mem://"
					if storage == "file" {
						url = "file://" + b.TempDir()
					}
					p := startPlugin(b, pluginBin, hosttest.Start(b).Addr())
					p.configure(b, map[string]any{"storageUrl": url})
					ctx := context.Background()
					bucket, err := p.client.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::proj::sitekit:index:Bucket::b",
						Name: "b", Type: "sitekit:index:Bucket", Properties: mustStruct(b, resource.PropertyMap{})})
					if err != nil {
						b.Fatalf("bucket: %v\nplugin stderr:\n%s", err, p.stderr)
					}
					news := mustStruct(b, resource.PropertyMap{
						"bucket":  resource.NewProperty(bucket.GetProperties().GetFields()["bucketName"].GetStringValue()),
						"key":     resource.NewProperty("pages/big.html"),
						"content": body,
					})
					before := vmHWM(b, p.cmd.Process.Pid)
					const u = "urn:pulumi:dev::proj::sitekit:index:BucketObject::big"
					chk, err := p.client.Check(ctx, &pulumirpc.CheckRequest{Urn: u, Name: "big", Type: "sitekit:index:BucketObject", News: news, RandomSeed: []byte{1}})
					if err != nil || len(chk.GetFailures()) > 0 {
						b.Fatalf("check: %v %v\nplugin stderr:\n%s", err, chk.GetFailures(), p.stderr)
					}
					news = nil
					created, err := p.client.Create(ctx, &pulumirpc.CreateRequest{Urn: u, Name: "big", Type: "sitekit:index:BucketObject", Properties: chk.GetInputs()})
					if err != nil {
						b.Fatalf("create: %v\nplugin stderr:\n%s", err, p.stderr)
					}
					after := vmHWM(b, p.cmd.Process.Pid)
					if !contentIs(created.GetProperties(), size, secret) {
						b.Fatalf("Create's outputs have no content of %d bytes (secret %v)", size, secret)
					}
					p.stop()
					grown += float64(after - before)
					peak += float64(after)
				}
				b.ReportMetric(peak/float64(b.N)/(1<<20), "peak-MiB")
				b.ReportMetric(grown/float64(b.N)/size, "rss-B/input-B")
			})
		}
	}
}

// contentIs reports whether outputs hold a content of size bytes, secret
// as said.
func contentIs(outputs *structpb.Struct, size int, secret bool) bool {
	c := outputs.GetFields()["content"]
	if s := c.GetStructValue(); s != nil {
		return secret && len(s.GetFields()["value"].GetStringValue()) == size
	}
	return !secret && len(c.GetStringValue()) == size
}

// indexRegistered reports whether the Site registered an object whose
// content is the whole input, secret as it was sent.
func indexRegistered(mon *hosttest.Monitor, size int, secret bool) bool {
	for _, r := range mon.Registrations() {
		c := r.Inputs.Get("content")
		if r.Type == "sitekit:index:BucketObject" && c.IsString() && len(c.AsString()) == size && c.Secret() == secret {
			return true
		}
	}
	return false
}

// vmHWM is the peak resident set size of process pid, in bytes.
func vmHWM(t testing.TB, pid int) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}
