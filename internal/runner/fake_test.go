package runner

import (
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/hosttest"
)

// fakeEngine is hosttest's fake engine, the one component authors test
// with (a real ResourceMonitor and Engine on loopback), as the test
// programs' engine: it records registrations, outputs and logs. It is set
// up as the engine of the older SDKs: GetDeploymentInfo answers
// Unimplemented, so the SDKs take the legacy SupportsFeature path.
type fakeEngine struct {
	*hosttest.Monitor
	// stackRegistered is closed when the program registers its stack.
	stackRegistered chan struct{}
}

func startFakeEngine(t *testing.T) *fakeEngine {
	t.Helper()
	f := &fakeEngine{stackRegistered: make(chan struct{})}
	var once sync.Once
	f.Monitor = hosttest.Start(t, hosttest.WithProject(testProject), hosttest.WithStack(testStack),
		hosttest.WithoutDeploymentInfo(),
		hosttest.WithFeatures("secrets", "resourceReferences", "outputValues", "aliasSpecs", "deletedWith"),
		hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
			if r.Type == "pulumi:pulumi:Stack" {
				once.Do(func() { close(f.stackRegistered) })
			}
			return resource.ID("id-" + r.Name), property.Map{}, nil
		}))
	return f
}

// logText is the engine's log, a "SEVERITY: message" line per entry.
func (f *fakeEngine) logText() string {
	var lines []string
	for _, l := range f.Logs() {
		lines = append(lines, l.Severity.String()+": "+l.Message)
	}
	return strings.Join(lines, "\n")
}
