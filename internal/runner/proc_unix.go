//go:build unix

package runner

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the program in a process group of its own, and
// where the kernel can, has it killed when the runner dies (dieWithRunner).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithRunner(cmd.SysProcAttr)
}

// killProcessGroup sends SIGKILL to the program's whole process group.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}

func exitSignal(err *exec.ExitError) string {
	if ws, ok := err.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
