// Package usage is the record the rusagewrap command writes for each plugin
// process and tests/bench reads back.
package usage

import (
	"errors"
	"os"
	"path/filepath"
)

// DirEnv names the directory rusagewrap writes records to; unset, it
// writes none. Plugins inherit it from the engine's environment.
const DirEnv = "POLYBENCH_RUSAGE_DIR"

// RoleEnv tells a plugin started by rusagewrap its role.
const RoleEnv = "POLYBENCH_ROLE"

// EveryEnv set to 1 makes every plugin process a Plugin: the real CLI
// also starts plugins to read schemas, so the first is not the one that
// serves.
const EveryEnv = "POLYBENCH_RUSAGE_EVERY"

// The roles of a deployment's two plugin processes.
const (
	// Component is the first plugin started: the component provider, which
	// serves Construct and Call.
	Component = "component"
	// Children is every later one: the children's provider, which serves
	// the CRUD of the components' custom children.
	Children = "children"
	// Plugin is any plugin process under EveryEnv; the reader tells them
	// apart by package and start time.
	Plugin = "plugin"
)

// Claim returns the role of a plugin starting now: Component for the first
// caller since dir was last emptied, Children after that.
func Claim(dir string) (string, error) {
	f, err := os.OpenFile(filepath.Join(dir, "component.claim"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, os.ErrExist) {
		return Children, nil
	}
	if err != nil {
		return "", err
	}
	return Component, f.Close()
}

// RunningSuffix marks a wrapper whose plugin still runs, under EveryEnv:
// DIR/<wrapper pid>.running exists until its record is written.
const RunningSuffix = ".running"

// Usage is a finished process's resource usage, from wait4.
type Usage struct {
	Role     string `json:"role"`
	Plugin   string `json:"plugin"` // the binary the wrapper ran
	UserNS   int64  `json:"userNs"`
	SystemNS int64  `json:"systemNs"`
	MaxRSSKB int64  `json:"maxRssKb"`
	// StartNS is when the wrapper started (Unix nanoseconds).
	StartNS int64 `json:"startNs,omitempty"`
}
