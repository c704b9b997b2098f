// Package usage is the record the rusagewrap command writes for each plugin
// process and tests/bench reads back.
package usage

// DirEnv names the directory rusagewrap writes records to; unset, it
// writes none. Plugins inherit it from the engine's environment.
const DirEnv = "POLYBENCH_RUSAGE_DIR"

// Usage is a finished process's resource usage, from wait4.
type Usage struct {
	UserNS   int64 `json:"userNs"`
	SystemNS int64 `json:"systemNs"`
	MaxRSSKB int64 `json:"maxRssKb"`
}
