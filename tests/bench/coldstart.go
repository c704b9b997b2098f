package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// stubEngine serves an Engine service that implements nothing (plus the
// health service rpcutil adds), enough for a plugin to start against.
type stubEngine struct {
	addr string
	stop chan bool
	done <-chan error
}

func startStubEngine() (*stubEngine, error) {
	stop := make(chan bool, 1)
	h, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterEngineServer(s, &pulumirpc.UnimplementedEngineServer{})
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	return &stubEngine{addr: fmt.Sprintf("127.0.0.1:%d", h.Port), stop: stop, done: h.Done}, nil
}

func (s *stubEngine) Close() {
	s.stop <- true
	<-s.done
}

// ColdStart starts the plugin at path as the engine does (engine address
// as the only argument) and times from exec to the answer of the first RPC,
// Handshake. It then shuts the plugin down with SIGINT.
func ColdStart(ctx context.Context, path, engineAddr string) (time.Duration, error) {
	_, answered, err := ColdStartTimes(ctx, path, engineAddr)
	return answered, err
}

// ColdStartTimes is ColdStart timing two points from exec: the port line
// on stdout, and the answer to Handshake (Unimplemented counts: the
// engine then goes on without it).
func ColdStartTimes(ctx context.Context, path, engineAddr string) (port, answered time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.Command(path, engineAddr)
	cmd.Stderr = io.Discard
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		t := time.AfterFunc(10*time.Second, func() { _ = cmd.Process.Kill() })
		_ = cmd.Wait()
		t.Stop()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return 0, 0, fmt.Errorf("reading the port of %s: %w", path, err)
	}
	port = time.Since(start)
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(line),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = conn.Close() }()
	_, err = pulumirpc.NewResourceProviderClient(conn).Handshake(ctx, &pulumirpc.ProviderHandshakeRequest{
		EngineAddress: engineAddr, ConfigureWithUrn: true,
	}, grpc.WaitForReady(true))
	if err != nil && status.Code(err) != codes.Unimplemented {
		return 0, 0, fmt.Errorf("handshake with %s: %w", path, err)
	}
	return port, time.Since(start), nil
}
