package reliability

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/polyhost/polyhost/internal/engine"
)

// bucketAndPage registers a bucket and one object in it.
var bucketAndPage = program(func(ctx context.Context, p *programClient) error {
	b, err := p.register(ctx, "sitekit:index:Bucket", "b", true, false, resource.PropertyMap{})
	if err != nil {
		return err
	}
	_, err = p.register(ctx, "sitekit:index:BucketObject", "page", true, false, resource.PropertyMap{
		"bucket":  b.Outputs["bucketName"],
		"key":     resource.NewProperty("slow.txt"),
		"content": resource.NewProperty("hello"),
	})
	return err
})

// The plugin is killed (SIGKILL), or asked to stop (SIGTERM), while it
// creates an object: the up fails saying so, and the next up converges on
// exactly one bucket and one object, in the state and in storage.
func TestPluginKilledMidUp(t *testing.T) {
	skipUnderRace(t)
	if runtime.GOOS != "linux" {
		t.Skip("finds the plugin process through /proc")
	}
	// Not parallel: SITEKIT_FAULT reaches the plugin through this
	// process's environment.
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) { pluginSignalledMidUp(t, sig) })
	}
}

func pluginSignalledMidUp(t *testing.T, sig syscall.Signal) {
	t.Setenv("SITEKIT_FAULT", "slow-create:*/slow.txt")
	s := newStack(t, faultyPlugin, nil)

	errc := make(chan error, 1)
	go func() {
		_, err := s.eng.Up(context.Background(), bucketAndPage)
		errc <- err
	}()
	// The object is written before the create stalls: then it is in flight.
	waitFor(t, "the object create to be in flight", func() bool {
		m, _ := filepath.Glob(filepath.Join(s.storage, "*", "slow.txt"))
		return len(m) == 1
	})
	pids := childProcesses(t, faultyPlugin)
	if len(pids) == 0 {
		t.Fatal("no plugin process to kill")
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil {
			t.Fatal(err)
		}
	}

	var err error
	select {
	case err = <-errc:
	case <-time.After(hangGuard):
		t.Fatalf("up still running %v after the plugin was killed", hangGuard)
	}
	if err == nil {
		t.Fatal("up succeeded although its plugin was killed")
	}
	t.Logf("up error: %v", err)
	// As the real engine does, the plugin client reports the plugin's
	// exit: it ended before the engine closed it, even when it stopped
	// cleanly on SIGTERM.
	if !strings.Contains(s.stderr.String(), "pulumi-resource-sitekit exited prematurely") {
		t.Errorf("the engine output does not report the plugin's exit:\n%s", s.stderr)
	}
	msg := err.Error()
	for _, want := range []string{"sitekit:index:BucketObject::page", "create"} {
		if !strings.Contains(msg, want) {
			t.Errorf("up error does not say %q: %v", want, err)
		}
	}
	buckets := s.live(t, "sitekit:index:Bucket")
	// Killed, the plugin never answers the create; stopped, it reports
	// the object as a partial create, which the engine records.
	wantObjects := 0
	if sig == syscall.SIGTERM {
		wantObjects = 1
	}
	if len(buckets) != 1 || len(s.live(t, "sitekit:index:BucketObject")) != wantObjects {
		t.Fatalf("state after %v: %d buckets, %d objects; want 1 and %d",
			sig, len(buckets), len(s.live(t, "sitekit:index:BucketObject")), wantObjects)
	}
	bucketID := buckets[0].ID

	t.Setenv("SITEKIT_FAULT", "")
	if _, err := s.eng.Up(context.Background(), bucketAndPage); err != nil {
		t.Fatalf("the next up: %v", err)
	}
	buckets, objects := s.live(t, "sitekit:index:Bucket"), s.live(t, "sitekit:index:BucketObject")
	if len(buckets) != 1 || buckets[0].ID != bucketID {
		t.Errorf("buckets after the next up = %+v, want the one bucket %s", buckets, bucketID)
	}
	if len(objects) != 1 || objects[0].ID != bucketID+"/slow.txt" {
		t.Fatalf("objects after the next up = %+v, want %s/slow.txt", objects, bucketID)
	}
	want := []string{filepath.Join(bucketID, ".sitekit-bucket"), filepath.Join(bucketID, "slow.txt")}
	if got := s.storedFiles(t); !slices.Equal(got, want) {
		t.Errorf("storage holds %q, want %q", got, want)
	}
	if data, err := os.ReadFile(filepath.Join(s.storage, bucketID, "slow.txt")); err != nil || string(data) != "hello" {
		t.Errorf("stored object = %q, %v", data, err)
	}

	res, err := s.eng.Up(context.Background(), bucketAndPage)
	if err != nil {
		t.Fatalf("a third up: %v", err)
	}
	for _, st := range res.Steps {
		if st.Op != engine.OpSame {
			t.Errorf("a third up did %s %s, want nothing to do", st.Op, st.URN)
		}
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// childProcesses lists this process's children running exe.
func childProcesses(t *testing.T, exe string) []int {
	t.Helper()
	want, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces, so cut at ')'.
		i := strings.LastIndexByte(string(stat), ')')
		fields := strings.Fields(string(stat)[i+1:])
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		// Compare files, not paths: /proc gives exe's path with symlinks
		// resolved ($TMPDIR may be one).
		if fi, err := os.Stat(filepath.Join("/proc", e.Name(), "exe")); err == nil && os.SameFile(fi, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}
