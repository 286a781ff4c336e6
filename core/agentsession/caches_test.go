package agentsession

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// Two sessions in one process, one with the parse and content caches
// turned off: each has its own caches, so the other keeps what its
// searches put in its parse cache whatever the first does in between.
// (With process-wide caches reconfigured by every call, the session with
// the caches off emptied them for both.)
func TestSessionsHaveTheirOwnCaches(t *testing.T) {
	if !astgrep.Available {
		t.Skip("native library not linked")
	}
	on := newFixture(t)
	off := newFixture(t, "PI_AST_PARSE_CACHE_MB=0", "PI_GREP_CONTENT_CACHE_MB=0")
	old := time.Now().Add(-time.Hour)
	for _, f := range []*fixture{on, off} {
		p := filepath.Join(f.project, "a.go")
		if err := os.WriteFile(p, []byte("package a\n\nfunc f() { g(1) }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	sOn := on.open(Options{Cwd: on.project, NoSession: true})
	sOff := off.open(Options{Cwd: off.project, NoSession: true})
	cOn, cOff := sOn.Tools().Env().Caches, sOff.Tools().Env().Caches
	if cOn == cOff || cOn.Scan == cOff.Scan {
		t.Fatal("the sessions share their caches")
	}
	if cOff.Parse != nil || cOff.Content != nil {
		t.Fatalf("caches turned off are there: %+v", cOff)
	}
	if cOn.Parse == nil || cOn.Content == nil {
		t.Fatalf("default caches missing: %+v", cOn)
	}
	grep := func(s *Session) {
		t.Helper()
		tl, err := registry.New("ast_grep", s.Tools().Env(), s.Tools().Services())
		if err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(map[string]any{"pat": "g($A)", "paths": []string{"."}})
		res, err := tool.Run(context.Background(), tl, args, nil)
		if err != nil || res.IsError {
			t.Fatalf("ast_grep: %v %+v", err, res)
		}
	}
	grep(sOn)
	if n := cOn.Parse.Stats().Entries; n == 0 {
		t.Fatal("the first search left nothing in its session's parse cache")
	}
	grep(sOff) // a session with the parse cache off searches in between
	before := cOn.Parse.Stats()
	if before.Entries == 0 {
		t.Fatal("the other session's search emptied this session's parse cache")
	}
	grep(sOn)
	if hits := cOn.Parse.Stats().Hits - before.Hits; hits == 0 {
		t.Fatal("the repeated search was not served from the session's parse cache")
	}
}
