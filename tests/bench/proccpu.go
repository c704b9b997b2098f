package bench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTick is Linux's USER_HZ, the unit of /proc/<pid>/stat's times.
const clockTick = 10 * time.Millisecond

// selfCPU is the CPU time a running process has used itself, user and
// system, over all its threads and without its children: fields 14 and 15
// of /proc/<pid>/stat.
func selfCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseSelfCPU(data)
}

func parseSelfCPU(stat []byte) (time.Duration, error) {
	// The command name, field 2, is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat %q: no command name", stat)
	}
	f := bytes.Fields(stat[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat %q: %d fields", stat, len(f)+2)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat %q: %w", stat, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * clockTick, nil
}

// watchCPU samples pid's own CPU every interval until stop is closed and
// returns the last sample: the process's CPU within interval of its exit.
func watchCPU(pid int, interval time.Duration, stop <-chan struct{}) <-chan time.Duration {
	out := make(chan time.Duration, 1)
	go func() {
		var last time.Duration
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			if v, err := selfCPU(pid); err == nil {
				last = v
			}
			select {
			case <-stop:
				out <- last
				return
			case <-t.C:
			}
		}
	}()
	return out
}
