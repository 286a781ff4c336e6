package htmlexport

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/session"
)

// BenchmarkExportFile exports the session file named by
// $HTMLEXPORT_BENCH_FILE (bench/export.sh writes a 50 MB one), loading
// included, as `gopi --export` does. Skipped without it.
func BenchmarkExportFile(b *testing.B) {
	src := os.Getenv("HTMLEXPORT_BENCH_FILE")
	if src == "" {
		b.Skip("HTMLEXPORT_BENCH_FILE not set (bench/export.sh sets it)")
	}
	out := filepath.Join(b.TempDir(), "page.html")
	fi, err := os.Stat(src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		if _, err := ExportFile(src, out, session.Options{}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender renders the fixture session (no I/O).
func BenchmarkRender(b *testing.B) {
	f := newFixture(b)
	m, err := session.OpenSnapshot(f.path, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Render(io.Discard, m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
