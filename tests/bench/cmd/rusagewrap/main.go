// Command rusagewrap stands in for a provider plugin and measures it: it
// runs real/<its own file name> from its own directory as a child with the
// same arguments and stdio, and when the child exits writes the child's
// resource usage (wait4: user and system CPU, peak RSS) and role as JSON to
// $POLYBENCH_RUSAGE_DIR/<child pid>.json. It exits with the child's status.
//
// The first plugin started after the runner empties that directory is the
// component provider; later ones are children's providers and run
// children/<its own file name> instead, if there is one. The child learns
// its role from $POLYBENCH_ROLE.
//
// With $POLYBENCH_RUSAGE_EVERY=1 every process has the role plugin and runs
// real/<its own file name>; the record has its start time, and
// <wrapper pid>.running exists in the directory until it is written.
//
// The engine sends SIGINT to the plugin's process group, which reaches the
// child directly; the wrapper only waits for it.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/polyhost/polyhost/tests/bench/internal/usage"
)

func main() {
	os.Exit(run())
}

func run() int {
	start := time.Now()
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "rusagewrap: %v\n", err)
		return 1
	}
	dir := os.Getenv(usage.DirEnv)
	role := usage.Component
	if os.Getenv(usage.EveryEnv) == "1" {
		role = usage.Plugin
		if dir != "" {
			running := filepath.Join(dir, fmt.Sprintf("%d%s", os.Getpid(), usage.RunningSuffix))
			if err := os.WriteFile(running, nil, 0o644); err != nil {
				fmt.Fprintf(os.Stderr, "rusagewrap: %v\n", err)
				return 1
			}
			defer func() { _ = os.Remove(running) }()
		}
	} else if dir != "" {
		if role, err = usage.Claim(dir); err != nil {
			fmt.Fprintf(os.Stderr, "rusagewrap: %v\n", err)
			return 1
		}
	}
	target := filepath.Join(filepath.Dir(self), "real", filepath.Base(self))
	if role == usage.Children {
		if c := filepath.Join(filepath.Dir(self), "children", filepath.Base(self)); fileExists(c) {
			target = c
		}
	}
	// Catch (not ignore) the signals the engine sends, so the child still
	// gets default handling after exec and we stay alive to report.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt, syscall.SIGTERM)

	cmd := exec.Command(target, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), usage.RoleEnv+"="+role)
	err = cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintf(os.Stderr, "rusagewrap: %v\n", err)
		return 1
	}
	if dir != "" {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			u := usage.Usage{
				Role:     role,
				Plugin:   target,
				UserNS:   syscall.TimevalToNsec(ru.Utime),
				SystemNS: syscall.TimevalToNsec(ru.Stime),
				MaxRSSKB: ru.Maxrss,
				StartNS:  start.UnixNano(),
			}
			data, _ := json.Marshal(u)
			name := filepath.Join(dir, fmt.Sprintf("%d.json", cmd.ProcessState.Pid()))
			if err := os.WriteFile(name, data, 0o644); err != nil {
				fmt.Fprintf(os.Stderr, "rusagewrap: %v\n", err)
			}
		}
	}
	return cmd.ProcessState.ExitCode()
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
