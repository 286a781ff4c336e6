package registry

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

func TestBuiltins(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	seen := map[string]bool{}
	for _, tl := range All(env, svc) {
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
		tl, err := New(e.Name, env, svc)
		if err != nil || tl.Definition().Name != e.Name {
			t.Fatalf("entry %s builds %v (%v)", e.Name, tl, err)
		}
	}
	if _, err := New("nope", env, svc); err == nil {
		t.Fatal("unknown tool accepted")
	}
}

// debug is offered with debug.enabled (on by default) and left out
// without it.
func TestDebugSetting(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	if !offered(env, svc, "debug") {
		t.Fatal("debug missing by default")
	}
	env.Settings.DebugEnabled = false
	if offered(env, svc, "debug") {
		t.Fatal("debug offered with debug.enabled off")
	}
}

// ssh is offered only when an ssh.json names a host, as in omp.
func TestSSHOfferedWithHosts(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	if offered(env, svc, "ssh") {
		t.Fatal("ssh offered without hosts")
	}
	env.Settings.SSHHosts = []config.SSHHost{{Name: "web", Host: "w"}}
	if !offered(env, svc, "ssh") {
		t.Fatal("ssh missing with a host")
	}
}

// offered reports whether All offers the tool name.
func offered(env *tool.Env, svc *Services, name string) bool {
	for _, tl := range All(env, svc) {
		if tl.Definition().Name == name {
			return true
		}
	}
	return false
}

// TestASTToolsShareQueue drives ast_grep, an ast_edit preview and a resolve
// apply through tools built by the registry from one Env: the preview is
// queued in that session's queue and resolve writes it.
func TestASTToolsShareQueue(t *testing.T) {
	t.Parallel()
	if !native.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte("package a\n\nvar v = old(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	svc := testServices(t, env)
	env.Settings = tool.DefaultSettings()
	call := func(name, args string) *tool.Result {
		t.Helper()
		tl, err := New(name, env, svc)
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
	other := testServices(t, tool.NewEnv(dir))
	if other.Pending == svc.Pending || other.Jobs == svc.Jobs || other.Todos == svc.Todos || other.Shell == svc.Shell {
		t.Fatal("two sessions share services")
	}
}

// testServices returns the services of a test session of env, closed
// when the test ends.
func testServices(t *testing.T, env *tool.Env) *Services {
	svc := NewServices(env)
	t.Cleanup(func() { svc.Close() })
	return svc
}
