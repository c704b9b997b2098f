//go:build unix && !linux

package runner

import "syscall"

// dieWithRunner does nothing: only Linux kills a program with its parent.
func dieWithRunner(*syscall.SysProcAttr) {}
