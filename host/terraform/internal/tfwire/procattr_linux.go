package tfwire

import "syscall"

// procAttr makes the kernel kill a provider process when the thread that
// started it ends, which is when the plugin ends, however it ends (a
// SIGKILL runs no cleanup). The Go runtime ends a thread only when a
// goroutine locked to it returns, which nothing here does.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
