package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// orphanEnv makes the test binary runOrphanParent instead of the tests.
const orphanEnv = "RUNNERTEST_ORPHAN_PIDFILE"

// runOrphanParent launches a program as Run does, one whose pid ends up in
// pidFile, and waits for it: until it is killed.
func runOrphanParent(pidFile string) {
	l := launch{runtime: "test", dir: ".", cwd: ".", path: "/bin/sh", env: os.Environ(),
		args: []string{"-c", `echo $$ > "$0.tmp" && mv "$0.tmp" "$0" && exec sleep 600`, pidFile}}
	_ = l.run(context.Background())
	os.Exit(1)
}

// A runner killed without a chance to stop its program (SIGKILL, or go
// test's timeout) leaves no program behind.
func TestProgramDiesWithRunner(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux kills a program with its parent")
	}
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "program.pid")
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), orphanEnv+"="+pidFile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	for i := 0; pid == 0; i++ {
		if data, err := os.ReadFile(pidFile); err == nil {
			if pid, err = strconv.Atoi(strings.TrimSpace(string(data))); err != nil {
				t.Fatalf("pid file %q: %v", data, err)
			}
		} else if i == 300 {
			_ = parent.Process.Kill()
			t.Fatal("the runner never started its program")
		} else {
			time.Sleep(100 * time.Millisecond)
		}
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	for i := 0; processAlive(pid); i++ {
		if i == 300 {
			t.Fatalf("program %d outlived its runner by 30 s", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
