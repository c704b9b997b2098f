package host

import (
	"os"
	"testing"
)

// Main's GOMAXPROCS: 1 by default, what WithMaxProcs says, and nothing when
// the environment sets GOMAXPROCS, even to a value the runtime ignores.
func TestMainMaxProcs(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  *string // nil: unset
		opts []Option
		want int
	}{
		{name: "default", want: 1},
		{name: "option", opts: []Option{WithMaxProcs(3)}, want: 3},
		{name: "Go's default", opts: []Option{WithMaxProcs(0)}, want: 0},
		{name: "environment wins", env: new("2"), opts: []Option{WithMaxProcs(3)}, want: 0},
		{name: "empty environment value", env: new(""), want: 0},
		{name: "invalid environment value", env: new("lots"), want: 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMAXPROCS", "") // restored after the test
			if tt.env == nil {
				os.Unsetenv("GOMAXPROCS")
			} else {
				os.Setenv("GOMAXPROCS", *tt.env)
			}
			p, err := New("pkg", tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.procs(); got != tt.want {
				t.Errorf("procs() = %d, want %d", got, tt.want)
			}
		})
	}
	if _, err := New("pkg", WithMaxProcs(-1)); err == nil {
		t.Error("WithMaxProcs(-1): want an error")
	}
}
