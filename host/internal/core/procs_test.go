package core

import (
	"os"
	"testing"
)

// Main's GOMAXPROCS: 1 by default, what WithMaxProcs says, and nothing when
// the environment sets GOMAXPROCS, even to a value the runtime ignores.
func TestMainMaxProcs(t *testing.T) {
	for _, tt := range []struct {
		name     string
		env      *string // nil: unset
		maxProcs *int    // nil: not set
		want     int
	}{
		{name: "default", want: 1},
		{name: "option", maxProcs: new(3), want: 3},
		{name: "Go's default", maxProcs: new(0), want: 0},
		{name: "environment wins", env: new("2"), maxProcs: new(3), want: 0},
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
			p := New("pkg")
			if tt.maxProcs != nil {
				if err := p.SetMaxProcs(*tt.maxProcs); err != nil {
					t.Fatal(err)
				}
			}
			if got := p.Procs(); got != tt.want {
				t.Errorf("Procs() = %d, want %d", got, tt.want)
			}
		})
	}
	if err := New("pkg").SetMaxProcs(-1); err == nil {
		t.Error("SetMaxProcs(-1): want an error")
	}
}
