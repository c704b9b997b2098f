package tfwire

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// procAttr makes the kernel kill a provider process when the thread that
// started it ends, which is when the plugin ends, however it ends (a
// SIGKILL runs no cleanup). The Go runtime ends a thread only when a
// goroutine locked to it returns, which nothing here does.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// processDead reports whether the process pid has exited: its entry is
// gone, or it is a zombie (dead, not yet reaped) or dying.
func processDead(pid int) bool {
	if pid <= 0 {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	// pid (comm) state ...: the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if err != nil || i < 0 || i+2 >= len(stat) {
		return false
	}
	switch stat[i+2] {
	case 'Z', 'X', 'x':
		return true
	}
	return false
}
