package tfwire

import (
	"os"
	"os/exec"
	"testing"
)

// processDead tells a live process from one that has exited.
func TestProcessDead(t *testing.T) {
	if processDead(os.Getpid()) {
		t.Error("this process counts as dead")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if !processDead(cmd.Process.Pid) {
		t.Errorf("process %d, exited and reaped, counts as alive", cmd.Process.Pid)
	}
	if processDead(0) {
		t.Error("pid 0 counts as dead")
	}
}
