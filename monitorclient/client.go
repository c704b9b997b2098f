package monitorclient

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/polyhost/polyhost/internal/wire"
)

// flowWindow is the static per-stream flow-control window of a monitor
// connection: large enough for any ordinary message in one go.
const flowWindow = 4 << 20

// dialOptions are the options of every connection to the engine: insecure
// credentials, 400 MiB messages, static windows.
func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		rpcutil.GrpcChannelOptions(),
		// Static flow-control windows: with gRPC's default dynamic ones,
		// the client pings the engine after most responses to estimate
		// the bandwidth, a write and a read per child for nothing on a
		// local connection.
		grpc.WithInitialWindowSize(flowWindow),
		grpc.WithInitialConnWindowSize(4 * flowWindow),
	}
}

// Client talks to one ResourceMonitor. It is safe for concurrent use.
type Client struct {
	addr     string
	conn     *grpc.ClientConn
	monitor  pulumirpc.ResourceMonitorClient
	features Features
	info     *DeploymentInfo
}

// Dial connects to the monitor at monitorAddr (host:port) and negotiates
// features: GetDeploymentInfo, or SupportsFeature per legacy id if the
// monitor does not implement it. Prefer Pool.Get, which does this once per
// address.
func Dial(ctx context.Context, monitorAddr string) (*Client, error) {
	conn, err := grpc.NewClient(monitorAddr, dialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("connecting to resource monitor %s: %w", monitorAddr, err)
	}
	c := &Client{addr: monitorAddr, conn: conn, monitor: pulumirpc.NewResourceMonitorClient(conn)}
	if err := c.negotiate(ctx); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("resource monitor %s: %w", monitorAddr, err)
	}
	return c, nil
}

func (c *Client) negotiate(ctx context.Context) error {
	di, err := c.monitor.GetDeploymentInfo(ctx, &emptypb.Empty{})
	if err == nil {
		c.features = featuresFromList(di.GetSupportedFeatures())
		c.info = new(fromRPCDeploymentInfo(di))
		return nil
	}
	if status.Code(err) != codes.Unimplemented {
		return fmt.Errorf("checking monitor features: %w", err)
	}
	for _, id := range slices.Sorted(maps.Keys(legacyFeatures)) {
		r, err := c.monitor.SupportsFeature(ctx, &pulumirpc.SupportsFeatureRequest{Id: id})
		if err != nil {
			return fmt.Errorf("checking monitor feature %q: %w", id, err)
		}
		if r.GetHasSupport() {
			legacyFeatures[id](&c.features)
		}
	}
	return nil
}

// Addr is the monitor address this client was dialled with.
func (c *Client) Addr() string { return c.addr }

// Features are the features negotiated at dial time.
func (c *Client) Features() Features { return c.features }

// DeploymentInfo is what GetDeploymentInfo returned; ok is false if the
// monitor does not implement it.
func (c *Client) DeploymentInfo() (info DeploymentInfo, ok bool) {
	if c.info == nil {
		return DeploymentInfo{}, false
	}
	i := *c.info
	i.Config = maps.Clone(i.Config)
	i.ConfigSecretKeys = slices.Clone(i.ConfigSecretKeys)
	return i, true
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// RegisterResource registers a resource and waits for the monitor's answer.
// A failed or skipped registration is reported in the response's Result,
// not as an error.
func (c *Client) RegisterResource(ctx context.Context, req RegisterResourceRequest) (RegisterResourceResponse, error) {
	out, err := c.registerResource(ctx, req)
	if err != nil {
		return RegisterResourceResponse{}, wrapErr("register resource", fmt.Sprintf("%s %q", req.Type, req.Name), err)
	}
	out.custom, out.inputs = req.Custom, req.Inputs
	if c.info != nil {
		out.DryRun = c.info.DryRun
	}
	return out, nil
}

func (c *Client) registerResource(ctx context.Context, req RegisterResourceRequest) (RegisterResourceResponse, error) {
	buf := getRequestBuffer()
	rreq, err := encodeRegisterResourceRequest(*buf, req, c.features)
	if err != nil {
		return RegisterResourceResponse{}, err
	}
	answer := registerAnswer{inputs: req.Inputs}
	err = c.conn.Invoke(ctx, pulumirpc.ResourceMonitor_RegisterResource_FullMethodName, rreq, &answer,
		grpc.ForceCodecV2(registerCodec{}))
	if err != nil {
		return RegisterResourceResponse{}, err
	}
	putRequestBuffer(buf, rreq)
	return answer.resp, answer.err
}

// RegisterResourceOutputs records the outputs of a component.
func (c *Client) RegisterResourceOutputs(
	ctx context.Context, req RegisterResourceOutputsRequest,
) (RegisterResourceOutputsResponse, error) {
	rreq, err := toRPCRegisterResourceOutputsRequest(req, c.features)
	if err == nil {
		_, err = c.monitor.RegisterResourceOutputs(ctx, rreq)
	}
	return RegisterResourceOutputsResponse{}, wrapErr("register outputs of", string(req.URN), err)
}

// Invoke calls a provider function. Provider failures come back as a
// *FailuresError.
func (c *Client) Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error) {
	out, err := c.invoke(ctx, req)
	return out, wrapErr("invoke", req.Token, err)
}

func (c *Client) invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error) {
	rreq, err := toRPCInvokeRequest(req, c.features)
	if err != nil {
		return InvokeResponse{}, err
	}
	resp, err := c.monitor.Invoke(ctx, rreq)
	if err != nil {
		return InvokeResponse{}, err
	}
	return fromRPCInvokeResponse(req.Token, resp)
}

// GetResource reads a resource registered in this deployment through the
// builtin pulumi:pulumi:getResource invoke.
func (c *Client) GetResource(ctx context.Context, req GetResourceRequest) (GetResourceResponse, error) {
	resp, err := c.invoke(ctx, InvokeRequest{
		Token: getResourceToken,
		Args:  property.NewMap(map[string]property.Value{"urn": property.New(string(req.URN))}),
	})
	if err != nil {
		return GetResourceResponse{}, wrapErr("get resource", string(req.URN), err)
	}
	out, err := fromGetResourceReturn(resp.Return)
	return out, wrapErr("get resource", string(req.URN), err)
}

// ReadResource reads an existing resource into the stack.
func (c *Client) ReadResource(ctx context.Context, req ReadResourceRequest) (ReadResourceResponse, error) {
	what := fmt.Sprintf("%s %q", req.Type, req.Name)
	if req.PackageRef != "" && !c.features.Parameterization {
		return ReadResourceResponse{}, wrapErr("read resource", what, errors.New("the monitor does not support package references (parameterization)"))
	}
	props, err := wire.MarshalMap(req.Properties, wire.MarshalOptions{
		Secrets: c.features.Secrets, Resources: c.features.ResourceReferences, ByteStrings: c.features.ByteString})
	if err != nil {
		return ReadResourceResponse{}, wrapErr("read resource", what, fmt.Errorf("marshaling properties: %w", err))
	}
	resp, err := c.monitor.ReadResource(ctx, &pulumirpc.ReadResourceRequest{
		Id: string(req.ID), Type: req.Type, Name: req.Name, Parent: string(req.Parent), Properties: props,
		Dependencies: wire.URNStrings(req.Dependencies), Provider: req.Provider.String(), Version: req.Version,
		PluginDownloadURL: req.PluginDownloadURL, PackageRef: req.PackageRef,
		AdditionalSecretOutputs: req.AdditionalSecretOutputs, ParentStackTraceHandle: req.ParentStackTraceHandle,
		AcceptSecrets: true, AcceptResources: true, AcceptsByteString: true,
	})
	if err != nil {
		return ReadResourceResponse{}, wrapErr("read resource", what, err)
	}
	out, err := unmarshalMap(resp.GetProperties())
	if err != nil {
		return ReadResourceResponse{}, wrapErr("read resource", what, fmt.Errorf("unmarshaling properties: %w", err))
	}
	return ReadResourceResponse{URN: urn.URN(resp.GetUrn()), Properties: out}, nil
}

// RegisterPackage registers a package with the monitor and returns its
// reference. The monitor must support parameterization.
func (c *Client) RegisterPackage(ctx context.Context, req RegisterPackageRequest) (RegisterPackageResponse, error) {
	if !c.features.Parameterization {
		return RegisterPackageResponse{}, wrapErr("register package", req.Name, errors.New("the monitor does not support parameterized packages"))
	}
	rreq := &pulumirpc.RegisterPackageRequest{Name: req.Name, Version: req.Version, DownloadUrl: req.DownloadURL, Checksums: req.Checksums}
	if p := req.Parameterization; p != nil {
		rreq.Parameterization = &pulumirpc.Parameterization{Name: p.Name, Version: p.Version, Value: p.Value}
	}
	resp, err := c.monitor.RegisterPackage(ctx, rreq)
	if err != nil {
		return RegisterPackageResponse{}, wrapErr("register package", req.Name, err)
	}
	return RegisterPackageResponse{Ref: resp.GetRef()}, nil
}

// Call calls a resource method. Provider failures come back as a
// *FailuresError.
func (c *Client) Call(ctx context.Context, req CallRequest) (CallResponse, error) {
	rreq, err := toRPCCallRequest(req, c.features)
	if err != nil {
		return CallResponse{}, wrapErr("call", req.Token, err)
	}
	resp, err := c.monitor.Call(ctx, rreq)
	if err != nil {
		return CallResponse{}, wrapErr("call", req.Token, err)
	}
	out, err := fromRPCCallResponse(req.Token, resp)
	return out, wrapErr("call", req.Token, err)
}
