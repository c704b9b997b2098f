package reliability

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
)

const (
	project  = "proj"
	stack    = "dev"
	stackURN = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
	// hangGuard bounds waits that only end if the code under test works,
	// so a regression fails the test instead of hanging it. It is not a
	// performance requirement: the engine health poll alone takes 5 s.
	hangGuard = 60 * time.Second
)

// syncBuffer collects output written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// pluginProcess is a provider binary started the way the engine starts it,
// with a raw gRPC client for requests the SDK client would refuse to send.
type pluginProcess struct {
	cmd    *exec.Cmd
	client pulumirpc.ResourceProviderClient
	conn   *grpc.ClientConn
	stderr *syncBuffer
	exited chan struct{} // closed when the process has exited
	err    error         // Wait's result, set before exited closes
}

// startPlugin runs bin with the engine address as its argument and extra
// environment variables, and connects to the port it prints.
func startPlugin(t testing.TB, bin, engineAddr string, env ...string) *pluginProcess {
	t.Helper()
	p := &pluginProcess{stderr: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(bin, engineAddr)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = p.stderr
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	portc := make(chan string, 1)
	go func() {
		// Drain stdout after the port line, as the engine does.
		port, _ := bufio.NewReader(stdout).ReadString('\n')
		portc <- port
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var port string
	select {
	case port = <-portc:
	case <-time.After(hangGuard):
	}
	// Wait only after the port line is read: it closes the pipe.
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.stop)
	port = strings.TrimSpace(port)
	if _, err := strconv.Atoi(port); err != nil {
		t.Fatalf("plugin printed %q as its port; stderr:\n%s", port, p.stderr)
	}
	// The engine's channel options: messages up to 400 MiB.
	p.conn, err = grpc.NewClient("127.0.0.1:"+port, grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		t.Fatal(err)
	}
	p.client = pulumirpc.NewResourceProviderClient(p.conn)
	return p
}

// stop interrupts the plugin as the engine's Close does and waits for it.
func (p *pluginProcess) stop() {
	if p.conn != nil {
		_ = p.conn.Close()
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// configure configures the plugin with the given provider config.
func (p *pluginProcess) configure(t testing.TB, config map[string]any) {
	t.Helper()
	args, err := structpb.NewStruct(config)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.client.Configure(context.Background(), &pulumirpc.ConfigureRequest{
		Args: args, AcceptSecrets: true, AcceptResources: true,
		Urn: ptr("urn:pulumi:dev::proj::pulumi:providers:sitekit::default"), Name: ptr("default"),
		Type: ptr("pulumi:providers:sitekit"), Id: ptr("default-id"),
	})
	if err != nil {
		t.Fatalf("configure: %v\nplugin stderr:\n%s", err, p.stderr)
	}
}

// servedProvider is a host provider served in this process by host.Serve,
// so the race detector and the goroutine check see the host's code.
type servedProvider struct {
	client pulumirpc.ResourceProviderClient
	conn   *grpc.ClientConn
	cancel context.CancelFunc
	done   chan error // Serve's result
}

// portWriter hands the first line Serve writes (the port) to a channel.
type portWriter struct {
	once sync.Once
	c    chan string
}

func (w *portWriter) Write(b []byte) (int, error) {
	w.once.Do(func() { w.c <- strings.TrimSpace(string(b)) })
	return len(b), nil
}

// serve runs host.Serve(p) with engineAddr as the plugin's argument. The
// test's cleanup stops it if it is still serving.
func serve(t *testing.T, p *host.Provider, engineAddr string) *servedProvider {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &servedProvider{cancel: cancel, done: make(chan error, 1)}
	w := &portWriter{c: make(chan string, 1)}
	go func() { s.done <- host.Serve(ctx, p, []string{engineAddr}, w) }()
	var port string
	select {
	case port = <-w.c:
	case err := <-s.done:
		t.Fatalf("serve: %v", err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+port, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	s.conn, s.client = conn, pulumirpc.NewResourceProviderClient(conn)
	t.Cleanup(func() {
		_ = conn.Close()
		cancel()
	})
	return s
}

// wait waits for Serve to return.
func (s *servedProvider) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-time.After(hangGuard):
		t.Fatalf("host.Serve still running %v after the engine went away", hangGuard)
		return nil
	}
}

// proxy forwards TCP connections to a target until Cut, which drops every
// connection and refuses new ones: the engine process vanishing.
type proxy struct {
	lis    net.Listener
	target string

	mu    sync.Mutex
	conns []net.Conn
	cut   bool
	wg    sync.WaitGroup
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{lis: lis, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.Cut)
	return p
}

func (p *proxy) Addr() string { return p.lis.Addr().String() }

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		in, err := p.lis.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		if !p.track(in, out) {
			return
		}
		p.wg.Add(2)
		go p.pipe(in, out)
		go p.pipe(out, in)
	}
}

func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	p.conns = append(p.conns, conns...)
	return true
}

func (p *proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	_ = dst.Close()
	_ = src.Close()
}

// Cut closes the listener and every connection, and waits for the
// proxy's goroutines.
func (p *proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	_ = p.lis.Close()
	for _, c := range conns {
		_ = c.Close()
	}
	p.wg.Wait()
}

// goroutines maps goroutine IDs to their stacks.
type goroutines map[string]string

func snapshotGoroutines() goroutines {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := goroutines{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if id, ok := strings.CutPrefix(header, "goroutine "); ok {
			id, _, _ = strings.Cut(id, " ")
			out[id] = g
		}
	}
	return out
}

// checkNoLeaks fails t if goroutines started since before are still
// running once things have had time to wind down. Run it only from tests
// that are not parallel: other tests' goroutines would count.
func checkNoLeaks(t *testing.T, before goroutines) {
	t.Helper()
	self := currentGoroutine()
	var leaked []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		leaked = leaked[:0]
		for id, stack := range snapshotGoroutines() {
			if _, old := before[id]; !old && id != self {
				leaked = append(leaked, stack)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(leaked) > 0 {
		t.Errorf("%d goroutines left behind:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
	}
}

func currentGoroutine() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _ := strings.CutPrefix(string(buf), "goroutine ")
	id, _, _ = strings.Cut(id, " ")
	return id
}

// exitCode reports how a process ended: its exit code, or the signal.
func exitCode(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "exit 0"
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by " + ws.Signal().String()
		}
		return fmt.Sprintf("exit %d", ee.ExitCode())
	}
	return err.Error()
}

func ptr[T any](v T) *T { return &v }

// skipUnderRace skips tests whose code under test runs in another process.
func skipUnderRace(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("drives the plugin binary; covered by the run without -race")
	}
}
