package agentsession

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/exitplan"
	"github.com/gopi-agent/gopi/core/tools/job"
	"github.com/gopi-agent/gopi/core/tools/recipe"
	"github.com/gopi-agent/gopi/core/tools/registry"
)

// Tools is the session's tool set: which tools the model is offered (the
// built-ins, limited by Options.ToolNames, then the extra tools a host or
// embedder adds, then those extensions register, then the MCP servers',
// narrowed by an extension's active set), the environment and services
// they share, the UI they ask through, and the state tools keep for the
// session (the todo plan, background jobs). Session.Tools returns it.
//
// It owns the tool lists under its own lock; every change rebuilds the
// offered list and the system prompt that names the tools, from the next
// model call on.
type Tools struct {
	host  toolsHost
	agent *agent.Agent            // offers the tools; set once the loop exists
	env   *tool.Env               // the tools' environment
	svc   *registry.Services      // what the tools share besides the Env
	perm  *permission.Gate        // asks its questions through the UI SetUI gives
	store func() *session.Manager // the current session store (the todo plan is recorded there)
	names []string                // Options.ToolNames: the built-ins to offer; nil for all
	child bool                    // a subagent's session: no plan mode, so no exit_plan_mode
	disc  *discovery              // tools.discoveryMode: tools hidden until search_tool_bm25 finds them

	mu        sync.Mutex
	extra     []tool.Tool     // SetExtra's tools (Options.ExtraTools at first)
	extension []tool.Tool     // SetExtension's tools (Options.ExtensionTools at first)
	active    map[string]bool // SetActive's names; nil offers every tool
	all       []tool.Tool     // every tool the last build made, before the active filter
}

// toolsHost is what the tool set uses of the rest of the session.
type toolsHost interface {
	// mcpTools returns the tools of the MCP servers.
	mcpTools() []tool.Tool
	// toolsPrompt builds the system prompt for the offered tools.
	toolsPrompt(tools []tool.Tool) (string, error)
	// excluded reports whether an extension asked to leave tl out.
	excluded(tl tool.Tool) bool
}

// Tools returns the session's tool set.
func (s *Session) Tools() *Tools { return s.tools }

// Offered returns the tools the session offers (hidden ones included).
func (t *Tools) Offered() []tool.Tool { return t.agent.Tools() }

// All returns every tool the session could offer, active or not.
func (t *Tools) All() []tool.Tool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]tool.Tool(nil), t.all...)
}

// Env returns the tools' shared state (working directory, settings, read
// cache, artifacts, the pending-action queue): custom tools built for
// this session use it.
func (t *Tools) Env() *tool.Env { return t.env }

// Services returns what the session's tools share besides the Env: the
// background jobs, the shell, the pending actions, the plan, the caches
// (see registry.Services). Embedders use it to reach them (an extension
// queueing a preview on Pending); they are closed with the session.
func (t *Tools) Services() *registry.Services { return t.svc }

// SetExtra replaces the tools offered after the built-ins (RPC host
// tools, custom tools) from the next model call on, and rebuilds the system
// prompt's tool list. A name that collides with a built-in is an error.
func (t *Tools) SetExtra(extra []tool.Tool) error {
	t.mu.Lock()
	t.extra = append([]tool.Tool(nil), extra...)
	t.mu.Unlock()
	return t.rebuild()
}

// SetExtension replaces the tools extensions registered (offered after
// the extra tools). A name that collides is an error; callers skip such
// tools first (BuiltinToolNames).
func (t *Tools) SetExtension(tools []tool.Tool) error {
	t.mu.Lock()
	t.extension = append([]tool.Tool(nil), tools...)
	t.mu.Unlock()
	return t.rebuild()
}

// SetActive limits the tools offered to the model to names (an
// extension's pi.setActiveTools); nil offers them all again. Every name
// must be one of All.
func (t *Tools) SetActive(names []string) error {
	var active map[string]bool
	if names != nil {
		known := map[string]bool{}
		for _, tl := range t.All() {
			known[tl.Definition().Name] = true
		}
		active = map[string]bool{}
		for _, n := range names {
			if !known[n] {
				return fmt.Errorf("set active tools: no tool is named %q; the session has %s", n, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
			}
			active[n] = true
		}
	}
	t.mu.Lock()
	t.active = active
	t.mu.Unlock()
	return t.rebuild()
}

// SetUI gives the session a user interface (RPC mode's extension UI, the
// TUI): tools that need one (ask) are offered from the next model call
// on, and the permission gate asks its questions there.
func (t *Tools) SetUI(ui tool.UI) error {
	t.env.UI = ui
	t.perm.UseUI(ui) // unless the mode gave the gate its own asker
	return t.rebuild()
}

// RunningJobs is the number of background jobs running now (async bash
// commands and background tasks); 0 when background jobs are off.
func (t *Tools) RunningJobs() int {
	if !job.Enabled(t.env) {
		return 0
	}
	return len(t.svc.Jobs.Running())
}

// SetTodoPhases replaces the todo plan (RPC set_todos), records it in the
// session so a resumed session has it, and returns it normalised.
func (t *Tools) SetTodoPhases(phases []TodoPhase) ([]TodoPhase, error) {
	out, err := t.svc.Todos.Set(phases)
	if err != nil {
		return nil, err
	}
	if _, err := t.store().Record(session.CustomState(UserTodoEdit, map[string]any{"phases": out})); err != nil {
		return nil, err
	}
	return out, nil
}

// TodoPhases returns the todo plan.
func (t *Tools) TodoPhases() []TodoPhase {
	p := t.svc.Todos.Phases()
	if p == nil {
		p = []TodoPhase{}
	}
	return p
}

// rebuild rebuilds the offered tools and the system prompt.
func (t *Tools) rebuild() error {
	tools, err := t.build()
	if err != nil {
		return err
	}
	system, err := t.host.toolsPrompt(tools)
	if err != nil {
		return err
	}
	t.agent.SetTools(tools)
	t.agent.SetSystemPrompt(system)
	return nil
}

// build builds the built-in tools (limited by names), adds the extra,
// extension and MCP tools, records them all, and returns those to offer.
func (t *Tools) build() ([]tool.Tool, error) {
	var out []tool.Tool
	env := t.env
	if t.names == nil {
		out = registry.All(env, t.svc)
	} else {
		env.EditEnabled = false
		for _, n := range t.names {
			if n == "edit" {
				env.EditEnabled = true
			}
		}
		for _, n := range t.names {
			tl, err := registry.New(n, env, t.svc)
			if err != nil {
				return nil, err
			}
			out = append(out, tl)
		}
		if contains(t.names, "bash") && !contains(t.names, recipe.Name) && registry.Offered(recipe.Name, env, t.svc) {
			// The project's tasks come with bash, as in omp.
			if tl, err := registry.New(recipe.Name, env, t.svc); err == nil {
				out = append(out, tl)
			}
		}
		if len(t.names) > 0 && !contains(t.names, "resolve") {
			// Previews need resolve; it stays hidden until one is queued.
			if tl, err := registry.New("resolve", env, t.svc); err == nil {
				out = append(out, tl)
			}
		}
		if len(t.names) > 0 && env.Settings.PlanEnabled && !t.child && !contains(t.names, exitplan.Name) {
			// Plan mode ends with exit_plan_mode, whatever tools were chosen.
			if tl, err := registry.New(exitplan.Name, env, t.svc); err == nil {
				out = append(out, tl)
			}
		}
	}
	if t.child {
		out = slices.DeleteFunc(out, func(tl tool.Tool) bool { return tl.Definition().Name == exitplan.Name })
	}
	seen := map[string]bool{}
	for _, tl := range out {
		seen[tl.Definition().Name] = true
	}
	t.mu.Lock()
	extra := append(append([]tool.Tool(nil), t.extra...), t.extension...)
	t.mu.Unlock()
	for _, tl := range extra {
		name := tl.Definition().Name
		if seen[name] {
			return nil, fmt.Errorf("tool %q is defined twice (a built-in or another extra tool has that name)", name)
		}
		seen[name] = true
		out = append(out, tl)
	}
	// MCP tools come last; their mcp__ prefix keeps them apart, and one
	// that still collides is left out rather than failing the session.
	for _, tl := range t.host.mcpTools() {
		if name := tl.Definition().Name; !seen[name] {
			seen[name] = true
			out = append(out, tl)
		}
	}
	out = slices.DeleteFunc(out, t.host.excluded)
	t.mu.Lock()
	t.all = out
	active := t.active
	t.mu.Unlock()
	if active != nil {
		var kept []tool.Tool
		for _, tl := range out {
			if active[tl.Definition().Name] {
				kept = append(kept, tl)
			}
		}
		out = kept
	}
	if t.disc.on() {
		out = t.disc.split(out)
		t.mu.Lock()
		t.all = append(t.all, out[len(out)-1]) // search_tool_bm25 may be named too
		t.mu.Unlock()
	}
	return out, nil
}

// SystemPrompt returns the current system prompt.
func (s *Session) SystemPrompt() string { return s.agent.SystemPrompt() }

// Permissions returns the gate that decides which tool calls run without
// asking (the permission modes) and asks the others.
func (t *Tools) Permissions() *permission.Gate { return t.perm }
