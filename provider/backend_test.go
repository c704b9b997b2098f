package provider

import (
	"context"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/provider/storage"
)

// A request that took the store before the provider was configured again
// finishes on it: the old store closes when its last request is done, not
// under it (issue 38, item 7: a Create failed with "Bucket has been
// closed" while Configure switched storage roots).
func TestReconfigureWaitsForRequestsInFlight(t *testing.T) {
	ctx := context.Background()
	b := &backend{}
	if err := b.configure(ctx, Config{StorageURL: property.New("file://" + t.TempDir())}); err != nil {
		t.Fatal(err)
	}
	st, release, err := b.get()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.configure(ctx, Config{StorageURL: property.New("file://" + t.TempDir())}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutBucket(ctx, storage.BucketInfo{Name: "in-flight"}); err != nil {
		t.Fatalf("a request in flight across a reconfigure: %v", err)
	}
	release()
	if err := st.PutBucket(ctx, storage.BucketInfo{Name: "after"}); err == nil {
		t.Error("the old store is still open after its last request")
	}
	now, release, err := b.get()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if now == st {
		t.Error("get returns the old store after a reconfigure")
	}
}
