//go:build !linux

package tfwire

import "syscall"

// procAttr is nil: only Linux has a parent-death signal, so elsewhere a
// plugin killed without cleanup leaves its provider processes running.
func procAttr() *syscall.SysProcAttr { return nil }

// processDead is false: without Linux's /proc, a provider process that
// closed its connection counts as dead only once go-plugin has reaped it.
func processDead(pid int) bool { return false }
