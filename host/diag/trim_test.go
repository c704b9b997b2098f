package diag

import (
	"runtime"
	"strings"
	"testing"
)

// A frame's file is shown as -trimpath writes it, never with a folder of
// the machine that built the plugin (issue 38, item 5).
func TestTrimPath(t *testing.T) {
	for _, c := range []struct {
		frame runtime.Frame
		want  string
	}{
		{runtime.Frame{Function: "github.com/acme/advkit/internal/enc.Build", File: "/home/dev/src/advkit/internal/enc/enc.go"}, "github.com/acme/advkit/internal/enc/enc.go"},
		{runtime.Frame{Function: "github.com/acme/lib.(*T).Do.func1", File: "/root/go/pkg/mod/github.com/acme/lib@v1.2.3/t.go"}, "github.com/acme/lib@v1.2.3/t.go"},
		{runtime.Frame{Function: "github.com/acme/advkit_test.TestX", File: "/home/dev/src/advkit/x_test.go"}, "github.com/acme/advkit/x_test.go"},
	} {
		if got := trimPath(c.frame); got != c.want {
			t.Errorf("trimPath(%s) = %q, want %q", c.frame.File, got, c.want)
		}
	}
	got := trimPath(runtime.Frame{Function: "main.BuildEnc", File: "/home/dev/src/advkit/main.go"})
	if strings.Contains(got, "/home/dev") || !strings.HasSuffix(got, "/main.go") || strings.HasPrefix(got, "main/") {
		t.Errorf("a main package's frame: %q, want the main package's import path and main.go", got)
	}
}
