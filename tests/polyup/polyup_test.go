package polyup

import (
	"bytes"
	"strings"
	"testing"
)

func TestCommandLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"-h"}, 0, "usage: polyup"},
		{[]string{dir}, 1, `error: unknown operation "` + dir + `": want preview, up, refresh or destroy`},
		// Flags after the operation and directory are flags too.
		{[]string{"up", dir, "-stack=x", "-config=a=b"}, 1, "error: " + dir + ": no Pulumi.yaml"},
		{[]string{"up", dir, "extra"}, 1, "error: want an operation and at most one program directory"},
		{[]string{"up", dir + "/nope"}, 1, "error: " + dir + "/nope: no such program directory"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		if code := Main(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("polyup %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
