package tokens

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// rusageCPU returns the CPU time of the calling OS thread
// (syscall.RUSAGE_THREAD) or of the whole process (syscall.RUSAGE_SELF).
func rusageCPU(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureCPU runs f b.N times on one locked OS thread and reports the
// throughput over the thread's CPU time as "cpu-MB/s": on a shared machine
// it leaves out the time the thread waited for a core.
func measureCPU(b *testing.B, bytes int, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	measureRusage(b, bytes, syscall.RUSAGE_THREAD, f)
}

// measureProcessCPU is measureCPU over the process's CPU time, for work
// spread over goroutines: what all of them spent (it includes the
// runtime's own threads, such as the collector's).
func measureProcessCPU(b *testing.B, bytes int, f func()) {
	measureRusage(b, bytes, syscall.RUSAGE_SELF, f)
}

// measureRusage runs f b.N times and reports bytes per second of the CPU
// time rusageCPU(who) counted meanwhile.
func measureRusage(b *testing.B, bytes, who int, f func()) {
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	start := rusageCPU(who)
	for b.Loop() {
		f()
	}
	if cpu := rusageCPU(who) - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}
