//go:build !linux

package tfwire

import "syscall"

// procAttr is nil: only Linux has a parent-death signal, so elsewhere a
// plugin killed without cleanup leaves its provider processes running.
func procAttr() *syscall.SysProcAttr { return nil }
