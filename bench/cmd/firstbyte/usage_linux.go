package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// processUsage reads a running process's CPU time so far (the sum of its
// threads' time on a CPU, /proc/PID/task/*/schedstat) and its peak
// resident set (VmHWM in /proc/PID/status). Unreadable parts stay zero.
func processUsage(pid int) resources {
	var u resources
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	tasks, _ := filepath.Glob(filepath.Join(dir, "task", "*", "schedstat"))
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := bytes.Fields(data); len(f) > 0 {
			if ns, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
				u.cpu += time.Duration(ns)
			}
		}
	}
	status, _ := os.ReadFile(filepath.Join(dir, "status"))
	for _, line := range bytes.Split(status, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			if f := bytes.Fields(v); len(f) > 0 {
				if kb, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
					u.rss = kb << 10
				}
			}
		}
	}
	return u
}

// exitUsage is the resource usage of a process that has exited.
func exitUsage(ps *os.ProcessState) resources {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return resources{}
	}
	return resources{cpu: time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime)), rss: ru.Maxrss << 10}
}
