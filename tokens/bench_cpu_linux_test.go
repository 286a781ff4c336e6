package tokens

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time of the calling OS thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU returns the CPU time of the whole process (every thread).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureProcessCPU runs f b.N times and reports the throughput over the
// process's CPU time as "cpu-MB/s": for work spread over goroutines, what
// all of them spent (it includes the runtime's own threads, such as the
// collector's).
func measureProcessCPU(b *testing.B, bytes int, f func()) {
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	start := processCPU()
	for b.Loop() {
		f()
	}
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// measureCPU runs f b.N times on one locked OS thread and reports the
// throughput over the thread's CPU time as "cpu-MB/s": on a shared machine
// it leaves out the time the thread waited for a core.
func measureCPU(b *testing.B, bytes int, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	start := threadCPU()
	for b.Loop() {
		f()
	}
	if cpu := threadCPU() - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}
