package pykernel

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
)

// BenchmarkPythonStart is python3's own start (`python3 -c pass`), the
// baseline of BenchmarkFirstCell.
func BenchmarkPythonStart(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not installed")
	}
	for b.Loop() {
		if err := exec.Command(py, "-c", "pass").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstCell is a session's first Python cell: a kernel started
// (runner and prelude loaded), `pass` run. Each iteration also times
// `python3 -c pass` right before it and reports the difference as
// ms-beyond-python/op, so that the machine's load swings both alike.
// The pool is warmed first (the runner installed, childproc's guard up).
func BenchmarkFirstCell(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not installed")
	}
	p := NewPool(Options{Environ: os.Environ()})
	defer p.Close()
	dir := b.TempDir()
	first := func() time.Duration {
		s := p.Session(dir, nil)
		defer s.Close() // stopping the kernel is not part of the first cell
		start := time.Now()
		res, err := s.Run(context.Background(), cell.Request{Code: "pass", Timeout: time.Minute, Output: io.Discard})
		if err != nil || res.ExitCode != 0 {
			b.Fatal(err, res)
		}
		return time.Since(start)
	}
	first()
	var cells, starts time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		start := time.Now()
		if err := exec.Command(py, "-c", "pass").Run(); err != nil {
			b.Fatal(err)
		}
		starts += time.Since(start)
		b.StartTimer()
		cells += first()
	}
	b.ReportMetric(float64(cells-starts)/float64(b.N)/1e6, "ms-beyond-python/op")
}

// BenchmarkCellRoundTrip is a later cell in a running kernel: `pass`
// sent, run and answered.
func BenchmarkCellRoundTrip(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 is not installed")
	}
	p := NewPool(Options{Environ: os.Environ()})
	defer p.Close()
	s := p.Session(b.TempDir(), nil)
	req := cell.Request{Code: "pass", Timeout: time.Minute, Output: io.Discard}
	if _, err := s.Run(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if res, err := s.Run(context.Background(), req); err != nil || res.ExitCode != 0 {
			b.Fatal(err, res)
		}
	}
}
