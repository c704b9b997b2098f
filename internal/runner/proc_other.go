//go:build !unix

package runner

import "os/exec"

func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills only the program itself: no process groups here.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func exitSignal(*exec.ExitError) string { return "" }
