package htmlexport

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
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

// costlyMarkdown is one answer of about size bytes of the Markdown
// goldmark is slowest on, kind picking which: quotes and lists nested
// hundreds deep, lists nested on one line, link openers, emphasis runs.
func costlyMarkdown(kind, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch kind % 5 {
		case 0:
			fmt.Fprintf(&b, "%s quoted line %d\n", strings.Repeat(">", i%400), i)
		case 1:
			fmt.Fprintf(&b, "%s- item %d\n", strings.Repeat("  ", i%200), i)
		case 2:
			fmt.Fprintf(&b, "%sx\n", strings.Repeat("- ", i%300))
		case 3:
			b.WriteString("[a](")
		case 4:
			b.WriteString("**a *b _c __d ")
		}
	}
	return b.String()
}

// writeCostlySession writes a session of about size bytes of answers made
// of costlyMarkdown to path.
func writeCostlySession(t testing.TB, path string, size int) {
	t.Helper()
	dir := t.TempDir()
	m := must[*session.Manager](t)(session.Create(session.Options{Cwd: "/work/project", Dir: filepath.Join(dir, "s"), Now: clock()}))
	for k, total := 0, 0; total < size; k++ {
		text := costlyMarkdown(k, 100<<10)
		total += len(text)
		must[string](t)(m.AppendMessage(&ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf("question %d", k))}}))
		must[string](t)(m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text(text)}, Model: "m", StopReason: ai.StopReasonStop}))
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(m.File())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWriteCostlySession writes the 10 MB session of costly Markdown to
// $HTMLEXPORT_COSTLY_FILE, for bench/export.sh; skipped without it.
func TestWriteCostlySession(t *testing.T) {
	path := os.Getenv("HTMLEXPORT_COSTLY_FILE")
	if path == "" {
		t.Skip("HTMLEXPORT_COSTLY_FILE not set (bench/export.sh sets it)")
	}
	writeCostlySession(t, path, 10<<20)
}

// BenchmarkRenderCostlyMarkdown renders a 2 MB session of costly
// Markdown (each answer shown as plain text); compare its ns/op per byte
// with BenchmarkRender's.
func BenchmarkRenderCostlyMarkdown(b *testing.B) {
	path := filepath.Join(b.TempDir(), "costly.jsonl")
	writeCostlySession(b, path, 2<<20)
	m, err := session.OpenSnapshot(path, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	for b.Loop() {
		if err := Render(io.Discard, m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
