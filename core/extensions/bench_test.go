package extensions

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// tenExtensions writes ten TypeScript extensions like guard (a tool with
// a zod schema, two handlers, a command, a relative import).
func tenExtensions(b *testing.B) []Entry {
	dir := b.TempDir()
	writeExt(b, dir, "lib/greet.ts", `export const greeting = (n: string): string => "Hello, " + n + "! ";`)
	var entries []Entry
	for i := range 10 {
		p := filepath.Join(dir, fmt.Sprintf("ext%d.ts", i))
		writeExt(b, dir, filepath.Base(p), guard)
		entries = append(entries, Entry{Path: p, Name: fmt.Sprint("ext", i)})
	}
	return entries
}

// reportCPU reports the process's CPU time per iteration since start as
// cpu-ns/op (every goroutine's: esbuild's builds too). On a machine
// shared with other work, wall time also counts the waits for a core;
// CPU time far less.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// benchStart loads entries as a new gopi process does, nothing in memory:
// cold (disk "") bundles them; with disk, the bundles are found in that
// cache directory (Options.BundleCacheDir), filled before timing.
func benchStart(b *testing.B, entries []Entry, disk string) {
	if disk != "" {
		Load(context.Background(), entries, Options{BundleCacheDir: disk}).Close()
	}
	defer reportCPU(b, processCPU())
	for b.Loop() {
		cacheMu.Lock()
		clear(cache)
		cacheMu.Unlock()
		// A new process compiles gopi's own scripts and esbuild's helper
		// sets again too.
		ownScripts.mu.Lock()
		clear(ownScripts.progs)
		ownScripts.mu.Unlock()
		helperSets.mu.Lock()
		clear(helperSets.bySrc)
		helperSets.list = nil
		helperSets.mu.Unlock()
		r := Load(context.Background(), entries, Options{BundleCacheDir: disk})
		if len(r.Errors()) > 0 {
			b.Fatal(r.Errors())
		}
		r.Close()
	}
}

// BenchmarkLoad10 loads ten TypeScript extensions: "cold" bundles them
// (empty cache), "nextstart" finds them in the cache on disk, "warm"
// finds them unchanged in the cache in memory, as a second session in the
// same process does.
func BenchmarkLoad10(b *testing.B) {
	entries := tenExtensions(b)
	b.Run("cold", func(b *testing.B) { benchStart(b, entries, "") })
	b.Run("nextstart", func(b *testing.B) { benchStart(b, entries, b.TempDir()) })
	b.Run("warm", func(b *testing.B) {
		defer reportCPU(b, processCPU())
		for b.Loop() {
			r := Load(context.Background(), entries, Options{})
			r.Close()
		}
	})
}

// BenchmarkToolCallHook is one tool_call hook round trip into JavaScript
// (the handler looks at the call and lets it through).
func BenchmarkToolCallHook(b *testing.B) {
	entries := tenExtensions(b)[:1]
	r := Load(context.Background(), entries, Options{})
	defer r.Close()
	h := r.Hooks()[0]
	call := &agent.ToolCallInfo{ID: "c1", Name: "bash", Args: tool.Args{"command": "go test ./..."}}
	run := func(b *testing.B) {
		for b.Loop() {
			if d, err := h.ToolCall(context.Background(), call); d != nil || err != nil {
				b.Fatal(d, err)
			}
		}
	}
	b.Run("unbound", run)
	// Bound to a session, as in a real run: the handler's ctx carries the
	// session's members.
	r.Bind(&storeHost{m: session.InMemory("/project")})
	b.Run("bound", run)
}
