package engine

import "context"

// RunInfo is what the engine hands a consumer program: the addresses it
// serves and the stack settings a real language host would pass on.
type RunInfo struct {
	MonitorAddr  string // ResourceMonitor address, host:port
	EngineAddr   string // Engine service address, host:port
	Project      string
	Stack        string
	Organization string
	// Config holds the stack configuration, keys "ns:name", values as plain strings
	// (secret values decrypted, as the real engine passes them).
	Config     map[string]string
	SecretKeys []string // which Config keys are secret
	DryRun     bool
	Parallel   int
	// Dir is the program directory (where Pulumi.yaml lives); programs run with it as cwd.
	Dir string
}

// Program runs one consumer program against the engine the way a Pulumi
// language host would. Run returns after the program exits; a non-zero exit
// is an error that carries the program's stderr.
type Program interface {
	Run(ctx context.Context, info RunInfo) error
}
