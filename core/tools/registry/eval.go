package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/eval/jscell"
	"github.com/gopi-agent/gopi/core/eval/pykernel"
	"github.com/gopi-agent/gopi/core/tool"
	evaltool "github.com/gopi-agent/gopi/core/tools/eval"
)

// EvalRuntimes are the eval tool's runtimes of one session. The Python
// kernel pool belongs to the top-level session; its subagents take their
// own kernels from it (ShareKernels), so the process keeps at most
// pykernel.DefaultMaxKernels and each agent its own variables.
type EvalRuntimes struct {
	Pool   *pykernel.Pool    // nil when Python cells are off
	Python *pykernel.Session // this session's kernel (started on the first cell); nil when off
	JS     *jscell.Runtime   // this session's JavaScript context; nil when off
	owns   bool              // Pool was built here, so close stops it
	env    *tool.Env
}

// newEvalRuntimes builds the runtimes env's settings turn on, taking
// kernels from shared when it is not nil; JavaScript's tool.<name> calls
// the built-in tools of svc.
func newEvalRuntimes(env *tool.Env, svc *Services, shared *pykernel.Pool) EvalRuntimes {
	r := EvalRuntimes{env: env}
	cfg := env.Settings.Eval
	if cfg.JS {
		r.JS = jscell.New(jscell.Options{
			Resolve:   env.Resolve,
			ReadFile:  env.ReadFile,
			WriteFile: writeThroughTool(callTool(env, svc)),
			Environ:   pykernel.FilterEnv(cfg.Environ, cfg.PassEnv),
			CallTool:  callTool(env, svc),
		})
	}
	if !cfg.Python {
		return r
	}
	r.Pool = shared
	if r.Pool == nil {
		r.Pool, r.owns = pykernel.NewPool(pykernel.Options{Environ: cfg.Environ, PassEnv: cfg.PassEnv, PerCall: cfg.PerCall, ManagedVenvs: cfg.ManagedVenvs}), true
	}
	r.Python = r.Pool.Session(env.Cwd, kernelEnv(env))
	return r
}

// kernelEnv is what a session adds to its Python kernel's environment.
func kernelEnv(env *tool.Env) []string {
	if env.Artifacts == nil {
		return nil
	}
	return []string{"PI_ARTIFACTS_DIR=" + env.Artifacts.Dir()}
}

// RenewEval gives the session fresh eval runtimes when it moves to
// another session file (new, resume, branch): the previous session's
// Python kernel stops with everything its cells started, its JavaScript
// globals are dropped, and the next cell of either starts afresh with
// env's artifacts directory. The pool stays.
func (s *Services) RenewEval(env *tool.Env) {
	if s.Eval.Python != nil {
		s.Eval.Python.Renew(kernelEnv(env))
	}
	if s.Eval.JS != nil {
		s.Eval.JS.Reset()
	}
}

// ShareKernels makes the services take Python kernels from a parent
// session's pool, which the parent closes.
func (s *Services) ShareKernels(env *tool.Env, p *pykernel.Pool) {
	_ = s.Eval.close() // nothing was started yet
	s.Eval = newEvalRuntimes(env, s, p)
}

// backends are the runtimes as the eval tool takes them.
func (r *EvalRuntimes) backends() evaltool.Backends {
	var b evaltool.Backends
	if r.Python != nil {
		b.Python = r.Python
		if !r.env.Settings.Eval.SkipPythonCheck {
			b.PythonMissing = r.Python.Available
		}
	}
	if r.JS != nil {
		b.JS = r.JS
	}
	return b
}

// close ends the session's kernel, and the pool when it is the session's.
func (r *EvalRuntimes) close() error {
	if r.Python != nil {
		_ = r.Python.Close()
	}
	if r.owns {
		return r.Pool.Close()
	}
	return nil
}

// newEval builds the eval tool over the session's runtimes.
func newEval(env *tool.Env, svc *Services) tool.Tool { return evaltool.New(env, svc.Eval.backends()) }

// evalAvailable says whether eval is offered: a runtime is on.
func evalAvailable(_ *tool.Env, svc *Services) bool { return evaltool.Available(svc.Eval.backends()) }

// writeThroughTool is how JavaScript's write() and append() write: as a
// call of the session's write tool, so plan mode, the tool_call hooks
// and the permission gate see it as they see tool.write (and a session
// without the write tool cannot write from a cell either).
func writeThroughTool(call func(ctx context.Context, name string, args json.RawMessage) (string, error)) func(ctx context.Context, abs string, data []byte) error {
	return func(ctx context.Context, abs string, data []byte) error {
		args, err := json.Marshal(map[string]string{"path": abs, "content": string(data)})
		if err != nil {
			return err
		}
		_, err = call(ctx, "write", args)
		return err
	}
}

// callTool is JavaScript's tool.<name>: one call of a built-in tool the
// session offers, through the same validation as the model's calls. A
// call answered with an error throws in the cell. The call passes the
// session's checks (svc.CallThrough): its tool_call hooks and permission
// gate ask about it as about the model's own calls.
func callTool(env *tool.Env, svc *Services) func(ctx context.Context, name string, args json.RawMessage) (string, error) {
	return func(ctx context.Context, name string, args json.RawMessage) (string, error) {
		if name == "eval" {
			return "", errors.New("eval cannot run inside eval; write the code in this cell")
		}
		if env.ToolNames != nil && !slices.Contains(env.ToolNames(), name) {
			return "", fmt.Errorf("this session has no tool %q; it has %s", name, strings.Join(env.ToolNames(), ", "))
		}
		t, err := New(name, env, svc)
		if err != nil {
			return "", err
		}
		decoded, err := tool.DecodeArgs(t.Definition(), args)
		if err != nil {
			return "", err
		}
		run := func() (*tool.Result, error) { return tool.Invoke(ctx, t, decoded, nil) }
		var res *tool.Result
		if svc.CallThrough != nil {
			res, err = svc.CallThrough(ctx, name, t, decoded, run)
		} else {
			res, err = run()
		}
		if err != nil {
			return "", err
		}
		var texts []string
		for _, c := range res.Content {
			if tc, ok := c.(*tool.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		if res.IsError {
			return "", errors.New(strings.Join(texts, "\n"))
		}
		return strings.Join(texts, "\n"), nil
	}
}
