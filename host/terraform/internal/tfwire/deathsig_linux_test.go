//go:build linux

package tfwire

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/polyhost/polyhost/host/terraform/internal/tftest"
)

// deathChildEnv, set to a provider binary's path, makes TestDeathSignal
// the child: it starts the provider, prints its pid, and waits to be
// killed.
const deathChildEnv = "TFWIRE_DEATH_CHILD"

// A plugin killed with SIGKILL, which runs no cleanup, leaves no provider
// process behind: the kernel sends the provider the parent-death signal.
func TestDeathSignal(t *testing.T) {
	if path := os.Getenv(deathChildEnv); path != "" {
		c, err := Start(context.Background(), Config{Path: path})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("pid", c.pc.ReattachConfig().Pid)
		select {} // until killed
	}
	child := exec.Command(os.Args[0], "-test.run=^TestDeathSignal$", "-test.count=1")
	child.Env = append(os.Environ(), deathChildEnv+"="+tftest.KVProvider(t))
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pidText, ok := strings.CutPrefix(strings.TrimSpace(line), "pid ")
	pid, perr := strconv.Atoi(pidText)
	if err != nil || !ok || perr != nil {
		_ = child.Process.Kill()
		_ = child.Wait()
		t.Fatalf("the child said %q (%v)", line, err)
	}
	// A pidfd becomes readable when the process exits: no polling.
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		_ = child.Process.Kill()
		_ = child.Wait()
		t.Fatalf("pidfd of the provider %d: %v", pid, err)
	}
	defer unix.Close(fd)
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		// A bound for a broken test, not a timing: the provider dies at once.
		n, err := unix.Poll(fds, 120_000)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			_ = unix.Kill(pid, unix.SIGKILL)
			t.Fatalf("the provider %d outlived its killed plugin", pid)
		}
		return
	}
}
