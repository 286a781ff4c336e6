package registry

import (
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
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
