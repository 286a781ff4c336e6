package registry

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// offeredNames lists the names of the tools All builds for env.
func offeredNames(t *testing.T, env *tool.Env) []string {
	t.Helper()
	var names []string
	for _, tl := range All(env, testServices(t, env)) {
		names = append(names, tl.Definition().Name)
	}
	return names
}

// eval is offered while a runtime is on, and its description names only
// the runtimes that are.
func TestEvalOffered(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	if !slices.Contains(offeredNames(t, env), "eval") {
		t.Fatal("eval is not offered by default")
	}
	env.Settings.Eval.Python, env.Settings.Eval.JS = false, false
	if slices.Contains(offeredNames(t, env), "eval") {
		t.Fatal("eval is offered with both runtimes off")
	}
	env.Settings.Eval.JS = true
	svc := testServices(t, env)
	tl, err := New("eval", env, svc)
	if err != nil {
		t.Fatal(err)
	}
	if d := tl.Definition(); d.Concurrency != tool.Exclusive || !strings.Contains(d.Description, "`js` (JavaScript)") || strings.Contains(d.Description, "`py` (Python 3)") {
		t.Fatalf("%+v", d)
	}
}

// A subagent's services take their kernels from the parent's pool, which
// only the parent closes.
func TestShareKernels(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	parent := testServices(t, env)
	child := testServices(t, tool.NewEnv(t.TempDir()))
	child.ShareKernels(env, parent.Eval.Pool)
	if child.Eval.Pool != parent.Eval.Pool || child.Eval.Python == parent.Eval.Python || child.Eval.owns {
		t.Fatalf("child %+v parent %+v", child.Eval, parent.Eval)
	}
}
