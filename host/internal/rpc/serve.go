package rpc

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/monitorclient"
)

// engineHealthInterval is how often a served provider checks that the
// engine that launched it is still there.
const engineHealthInterval = 5 * time.Second

// flowWindow is the static per-stream flow-control window of the plugin's
// server: large enough for any ordinary message in one go.
const flowWindow = 4 << 20

// streamWorkers is how many goroutines serve the plugin's calls, each call
// after call: a goroutine per call would grow its stack anew for each.
const streamWorkers = 16

// Serve serves p on 127.0.0.1 and writes the chosen port as the first line
// of stdout, as the engine expects. args is the plugin command line: the
// engine's address as the one positional argument, or none to wait for the
// engine to Attach (PULUMI_DEBUG_PROVIDERS). Serve returns after SIGINT or
// SIGTERM, when ctx ends, or when the engine goes away.
func Serve(ctx context.Context, p *core.Provider, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("pulumi-resource-"+p.Name(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("logtostderr", false, "")
	fs.Int("v", 0, "")
	fs.String("tracing", "", "")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("bad arguments %q: %w", args, err)
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("want at most one argument, the engine address; got %q", fs.Args())
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	if fs.NArg() == 1 {
		addr := fs.Arg(0)
		p.SetEngine(addr)
		// The engine never tells a plugin it is leaving; notice it.
		watched, err := watchEngine(ctx, addr, cancel)
		if err != nil {
			return fmt.Errorf("engine %s: %w", addr, err)
		}
		defer func() { cancel(); <-watched }()
	}

	srv := newServer(p)
	stopServing := make(chan bool, 1)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stopServing,
		Init: func(g *grpc.Server) error {
			registerServer(g, srv)
			return nil
		},
		Options: serverOptions(srv),
	})
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "%d\n", handle.Port); err != nil {
		return fmt.Errorf("writing the port: %w", err)
	}

	select {
	case <-ctx.Done():
		// Abort work in flight so the graceful stop does not wait on it.
		srv.inflight.cancelAll()
		stopServing <- true
		err = <-handle.Done
	case err = <-handle.Done:
	}
	_ = p.Close() // and the parameterized package's, if Parameterize chose one
	return err
}

// serverOptions are the gRPC server options Serve serves srv with; the
// server needs registerServer.
func serverOptions(srv *server) []grpc.ServerOption {
	return append(crudServerOptions(),
		grpc.ChainUnaryInterceptor(srv.intercept),
		// Static flow-control windows, as in monitorclient: dynamic ones
		// make the server ping the engine after most requests.
		grpc.InitialWindowSize(flowWindow),
		grpc.InitialConnWindowSize(4*flowWindow),
		grpc.NumStreamWorkers(streamWorkers),
	)
}

// intercept runs around every RPC: it makes the request cancellable by
// Cancel and turns a panic into an error for that call alone.
func (s *server) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	if info.FullMethod != pulumirpc.ResourceProvider_Cancel_FullMethodName {
		var id int
		ctx, id = s.inflight.track(ctx)
		defer s.inflight.untrack(id)
	}
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("%s: internal error: panic: %v", info.FullMethod, r)
			s.serving().Log(context.Background(), monitorclient.SeverityDebug, "", msg+"\n"+string(debug.Stack()))
			resp, err = nil, status.Error(codes.Internal, msg)
		}
	}()
	return handler(ctx, req)
}

// watchEngine polls the engine's health service and calls gone when the
// engine stops answering (Unimplemented counts as alive). Its connection is
// closed, and the returned channel closed, when ctx ends.
func watchEngine(ctx context.Context, addr string, gone context.CancelFunc) (<-chan struct{}, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer conn.Close()
		health := healthpb.NewHealthClient(conn)
		tick := time.NewTicker(engineHealthInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				_, err := health.Check(ctx, &healthpb.HealthCheckRequest{})
				if err != nil && status.Code(err) != codes.Unimplemented && ctx.Err() == nil {
					gone()
					return
				}
			}
		}
	}()
	return done, nil
}
