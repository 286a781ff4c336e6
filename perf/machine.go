package perf

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes the host for a record: logical CPUs, CPU model,
// memory and kernel, e.g. "2 CPUs, AMD EPYC 7B13, 7.8 GiB, Linux 6.1.0".
func Machine() string {
	parts := []string{fmt.Sprintf("%d CPUs", runtime.NumCPU())}
	if m := procField("/proc/cpuinfo", "model name"); m != "" {
		parts = append(parts, m)
	}
	if kb, err := strconv.ParseFloat(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0], 64); err == nil && kb > 0 {
		parts = append(parts, fmt.Sprintf("%.1f GiB", kb/1048576))
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		parts = append(parts, "Linux "+strings.TrimSpace(string(b)))
	} else {
		parts = append(parts, runtime.GOOS+"/"+runtime.GOARCH)
	}
	return strings.Join(parts, ", ")
}

// Load returns the 1-minute load average, or -1 where it cannot be read.
func Load() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// procField returns the value of the first "key: value" line of a /proc
// file whose key is key, or "".
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
