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
