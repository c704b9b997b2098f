package main

import (
	"context"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
)

func TestHooks(t *testing.T) {
	p, err := host.New("baseapi", host.WithoutSchema(), host.WithResource("baseapi:index:Bucket", bucket{}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p,
		hosttest.WithInvokeHook(func(inv hosttest.Invocation) (hosttest.InvokeResult, error) {
			return hosttest.InvokeResult{Return: property.NewMap(map[string]property.Value{"token": property.New(inv.Token)})}, nil
		}),
		hosttest.WithCallHook(func(c hosttest.Call) (hosttest.CallResult, error) {
			return hosttest.CallResult{Return: c.Args}, nil
		}),
	)
	var resp hosttest.InvokeResponse
	resp, err = h.Invoke(context.Background(), "baseapi:index:f", property.Map{})
	t.Log(resp, err)
	var call hosttest.CallResponse
	call, err = h.Call(context.Background(), hosttest.CallRequest{Token: "baseapi:index:Site/m"})
	t.Log(call, err)
	for _, l := range h.Monitor.Logs() {
		var e hosttest.LogEntry = l
		t.Log(e.Message)
	}
	_ = hosttest.CheckFailure{Property: "name", Reason: "missing"}
	_ = hosttest.CustomTimeouts{Create: "1m"}
	_ = []hosttest.Alias{}
}
