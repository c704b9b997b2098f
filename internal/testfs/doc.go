// Package testfs gives tests filesystems to fail on: a small tmpfs that a
// test can fill (a full disk, for real), and a directory on another
// filesystem than a given one (a TMPDIR across devices). Linux only; a
// test skips, saying why, where the machine does not allow them.
package testfs
