package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
	"github.com/gopi-agent/gopi/native/rure"
)

func TestGolden(t *testing.T) { tooltest.RunDir(t, "testdata/golden", New) }

// TestGoldenNative runs testdata/native/*.txtar, cases whose text comes
// from the native regex engine (the pure-Go fallback words them otherwise).
func TestGoldenNative(t *testing.T) {
	t.Parallel()
	if !rure.Available {
		t.Skip("native regex engine not built in")
	}
	tooltest.RunDir(t, "testdata/native", New)
}

func TestRoundRobin(t *testing.T) {
	t.Parallel()
	var hits []hit
	for i := range 150 {
		hits = append(hits, hit{abs: "/big"})
		hits[len(hits)-1].Line = i + 1
	}
	for i := range 3 {
		h := hit{abs: "/small"}
		h.Line = i + 1
		hits = append(hits, h)
	}
	got := roundRobin(hits, 100)
	small := 0
	for _, h := range got {
		if h.abs == "/small" {
			small++
		}
	}
	if len(got) != 100 || small != 3 {
		t.Fatalf("%d picked, %d from the small file", len(got), small)
	}
}

func TestVisibleLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for f := range 3 {
		var b strings.Builder
		for i := range 60 {
			fmt.Fprintf(&b, "match %d\n", i)
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", f)), []byte(b.String()), 0o644)
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	res, err := tool.Run(context.Background(), New(env), json.RawMessage(`{"pattern":"match","paths":["."]}`), nil)
	if err != nil || res.IsError {
		t.Fatal(res.FirstText(), err)
	}
	d := res.Details.(*Details)
	if d.MatchCount != 100 || !d.MatchLimitReached || d.ResultLimitReached || d.FileCount != 3 {
		t.Fatalf("%+v", d)
	}
	for _, fm := range d.FileMatches {
		if fm.Count < 33 || fm.Count > 34 {
			t.Fatalf("uneven round-robin: %+v", d.FileMatches)
		}
	}
	if !strings.Contains(res.FirstText(), "[100 matches shown; more exist.") {
		t.Fatal("no limit notice")
	}
}

// TestRegexError checks that a bad pattern is a tool error starting with
// the engine's "regex parse error" whichever engine runs (its detail differs
// between the Rust and the pure-Go matcher, so the golden case holding the
// full text, testdata/native, runs only with the native engine).
func TestRegexError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\n"), 0o644)
	res, err := tool.Run(context.Background(), New(tool.NewEnv(dir)), json.RawMessage(`{"pattern":"a[","paths":["."]}`), nil)
	if err != nil || !res.IsError || !strings.HasPrefix(res.FirstText(), "regex parse error") {
		t.Fatalf("%q %v", res.FirstText(), err)
	}
}
