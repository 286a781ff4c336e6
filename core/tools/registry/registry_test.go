package registry

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

func TestBuiltins(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	seen := map[string]bool{}
	for _, tl := range All(env) {
		def := tl.Definition()
		if seen[def.Name] || def.Description == "" || def.Parameters == nil || def.Parameters.Type != "object" {
			t.Fatalf("bad definition %+v", def)
		}
		if def.Concurrency != tool.Shared && def.Concurrency != tool.Exclusive {
			t.Fatalf("%s: concurrency %q", def.Name, def.Concurrency)
		}
		seen[def.Name] = true
	}
	for _, e := range Builtins() {
		tl, err := New(e.Name, env)
		if err != nil || tl.Definition().Name != e.Name {
			t.Fatalf("entry %s builds %v (%v)", e.Name, tl, err)
		}
	}
	if _, err := New("nope", env); err == nil {
		t.Fatal("unknown tool accepted")
	}
}

// TestASTToolsShareQueue drives ast_grep, an ast_edit preview and a resolve
// apply through tools built by the registry from one Env: the preview is
// queued in that session's queue and resolve writes it.
func TestASTToolsShareQueue(t *testing.T) {
	if !native.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte("package a\n\nvar v = old(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	call := func(name, args string) *tool.Result {
		t.Helper()
		tl, err := New(name, env)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tool.Run(context.Background(), tl, json.RawMessage(args), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			t.Fatalf("%s %s: %s", name, args, res.FirstText())
		}
		return res
	}
	if got := call("ast_grep", `{"pat":"old($A)","paths":["."]}`).FirstText(); !strings.Contains(got, "old(1)") {
		t.Fatalf("ast_grep found nothing:\n%s", got)
	}
	call("ast_edit", `{"ops":[{"pat":"old($A)","out":"neu($A)"}],"paths":["."]}`)
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "old(1)") {
		t.Fatal("ast_edit preview wrote the file")
	}
	if got := call("resolve", `{"action":"apply","reason":"test"}`).FirstText(); !strings.Contains(got, "Applied 1 replacements in 1 files.") {
		t.Fatalf("resolve: %s", got)
	}
	if b, _ := os.ReadFile(path); string(b) != "package a\n\nvar v = neu(1)\n" {
		t.Fatalf("after resolve: %q", b)
	}
	other := tool.NewEnv(dir)
	if resolve.For(other) == resolve.For(env) {
		t.Fatal("two sessions share one pending-action queue")
	}
}
