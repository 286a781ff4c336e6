//go:build cgo

package outline

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// A file outlined through BodiesOf leaves its tree in the native parse
// cache, where an AST search of the same file finds it (and the other way
// round), and a changed file is parsed again.
func TestBodiesOfSharesTheParseCache(t *testing.T) {
	pc := astgrep.NewParseCache(16 << 20)
	t.Cleanup(pc.Close)
	p := filepath.Join(t.TempDir(), "m.py")
	write := func(src string) (os.FileInfo, []byte) {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return info, []byte(src)
	}
	info, src := write("def f():\n    a = 1\n    return a\n")
	ctx := context.Background()
	spans, err := BodiesOf(ctx, pc, "python", p, info, src, 1)
	if err != nil || !reflect.DeepEqual(spans, []Span{{2, 3}}) {
		t.Fatalf("spans %v, %v", spans, err)
	}
	if s := pc.Stats(); s.Entries != 1 {
		t.Fatalf("after the outline: %+v, want one entry", s)
	}
	m, err := astgrep.Compile("python", []astgrep.Rule{{Pattern: "return $X"}}, astgrep.Smart)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	before := pc.Stats()
	res, err := m.Search([]astgrep.Input{{Path: p}}, astgrep.Options{Cache: pc})
	if err != nil || len(res[0].Matches) != 1 {
		t.Fatalf("search: %+v, %v", res, err)
	}
	if hits := pc.Stats().Hits - before.Hits; hits != 1 {
		t.Fatalf("search after the outline: %d cache hits, want 1 (the tree)", hits)
	}
	before = pc.Stats()
	if again, err := BodiesOf(ctx, pc, "python", p, info, src, 1); err != nil || !reflect.DeepEqual(again, spans) {
		t.Fatalf("second outline %v, %v", again, err)
	}
	if hits := pc.Stats().Hits - before.Hits; hits != 1 {
		t.Fatalf("second outline: %d cache hits, want 1", hits)
	}
	// A new content under a new stamp is parsed, not taken from the cache.
	info, src = write("def f():\n    a = 1\n    b = 2\n    return a\n")
	if spans, err := BodiesOf(ctx, pc, "python", p, info, src, 1); err != nil || !reflect.DeepEqual(spans, []Span{{2, 4}}) {
		t.Fatalf("after a change: %v, %v", spans, err)
	}
}
