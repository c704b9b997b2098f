package runner

import "syscall"

// dieWithRunner has the kernel send the program SIGKILL if the runner dies
// without stopping it (killed, or a test binary ended by its timeout), so
// no program outlives the deployment it ran for. The kernel sends it when
// the thread that started the program ends: launch.run keeps its goroutine
// on that thread until the program has exited.
func dieWithRunner(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
