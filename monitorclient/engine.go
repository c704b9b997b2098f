package monitorclient

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// EngineClient talks to the engine's Engine service (logging). Safe for
// concurrent use.
type EngineClient struct {
	conn   *grpc.ClientConn
	engine pulumirpc.EngineClient
}

// DialEngine connects to the Engine service at engineAddr, the address the
// engine passes on the plugin's command line. No RPC is made until Log.
func DialEngine(ctx context.Context, engineAddr string) (*EngineClient, error) {
	_ = ctx // grpc.NewClient connects lazily; kept for the common shape.
	conn, err := grpc.NewClient(engineAddr, dialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("connecting to engine %s: %w", engineAddr, err)
	}
	return &EngineClient{conn: conn, engine: pulumirpc.NewEngineClient(conn)}, nil
}

// Log sends one diagnostic message. Invalid UTF-8 in Message is replaced,
// as the Go SDK's host client does.
func (e *EngineClient) Log(ctx context.Context, req LogRequest) (LogResponse, error) {
	rreq, err := toRPCLogRequest(req)
	if err == nil {
		_, err = e.engine.Log(ctx, rreq)
	}
	if err != nil {
		return LogResponse{}, fmt.Errorf("engine log: %w", err)
	}
	return LogResponse{}, nil
}

// Close closes the connection.
func (e *EngineClient) Close() error { return e.conn.Close() }
