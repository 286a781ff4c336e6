// Package registry lists the built-in tools and builds them for a session.
//
// Each built-in is one line of the builtins table: its name and its
// constructor, which takes the session's Env and the Services it needs
// (services.go). A tool added to gopi is added here with one line; the
// order of the table is the order tools are offered to the model.
package registry

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/ask"
	"github.com/gopi-agent/gopi/core/tools/astedit"
	"github.com/gopi-agent/gopi/core/tools/astgrep"
	"github.com/gopi-agent/gopi/core/tools/bash"
	"github.com/gopi-agent/gopi/core/tools/browser"
	"github.com/gopi-agent/gopi/core/tools/calc"
	"github.com/gopi-agent/gopi/core/tools/checkpoint"
	"github.com/gopi-agent/gopi/core/tools/debug"
	"github.com/gopi-agent/gopi/core/tools/edit"
	"github.com/gopi-agent/gopi/core/tools/exitplan"
	"github.com/gopi-agent/gopi/core/tools/find"
	"github.com/gopi-agent/gopi/core/tools/github"
	"github.com/gopi-agent/gopi/core/tools/inspectimage"
	"github.com/gopi-agent/gopi/core/tools/irc"
	"github.com/gopi-agent/gopi/core/tools/job"
	lsptool "github.com/gopi-agent/gopi/core/tools/lsp"
	"github.com/gopi-agent/gopi/core/tools/memory"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/core/tools/recipe"
	"github.com/gopi-agent/gopi/core/tools/rendermermaid"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	"github.com/gopi-agent/gopi/core/tools/search"
	sshtool "github.com/gopi-agent/gopi/core/tools/ssh"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/core/tools/todo"
	"github.com/gopi-agent/gopi/core/tools/websearch"
	"github.com/gopi-agent/gopi/core/tools/write"
)

// Factory builds a tool for a session from its Env and Services.
type Factory func(env *tool.Env, svc *Services) tool.Tool

// Entry is one built-in tool.
type Entry struct {
	Name string  // the tool's name, as in its Definition
	New  Factory // constructor
	// Available, when set, says whether the session can offer the tool
	// (ask needs a UI); All leaves it out otherwise.
	Available func(env *tool.Env, svc *Services) bool
}

// builtins is the table of built-in tools, in the order they are offered.
var builtins = []Entry{
	{"read", func(env *tool.Env, svc *Services) tool.Tool { return read.New(env, svc.Pages) }, nil},
	{"write", envOnly(write.New), nil},
	// exit_plan_mode ends plan mode; offered with plan.enabled, as in omp.
	{"exit_plan_mode", envOnly(exitplan.New), func(env *tool.Env, _ *Services) bool { return exitplan.Available(env) }},
	{"edit", envOnly(edit.New), nil},
	{"search", envOnly(search.New), nil},
	{"find", envOnly(find.New), nil},
	// lsp exists while language servers are on (lsp.enabled, no --no-lsp).
	{"lsp", func(env *tool.Env, svc *Services) tool.Tool { return lsptool.New(env, svc.LSP) },
		func(_ *tool.Env, svc *Services) bool { return lsptool.Available(svc.LSP) }},
	// inspect_image exists with inspect_image.enabled; it asks the
	// session's vision model (Services.Vision).
	{"inspect_image", func(env *tool.Env, svc *Services) tool.Tool { return inspectimage.New(env, svc.Vision) },
		func(env *tool.Env, _ *Services) bool { return inspectimage.Available(env) }},
	{"ast_grep", envOnly(astgrep.New), nil},
	{"ast_edit", func(env *tool.Env, svc *Services) tool.Tool { return astedit.New(env, svc.Pending) }, nil},
	// render_mermaid exists with renderMermaid.enabled (off by default).
	{"render_mermaid", envOnly(rendermermaid.New), func(env *tool.Env, _ *Services) bool { return rendermermaid.Available(env) }},
	{"todo_write", func(_ *tool.Env, svc *Services) tool.Tool { return todo.New(svc.Todos) },
		func(env *tool.Env, _ *Services) bool { return env.Settings.TodoEnabled }},
	{"bash", func(env *tool.Env, svc *Services) tool.Tool { return bash.New(env, svc.Jobs, svc.Shell) }, nil},
	// job exists when background jobs do (async.enabled or
	// bash.autoBackground.enabled).
	{"job", func(env *tool.Env, svc *Services) tool.Tool { return job.New(env, svc.Jobs) },
		func(env *tool.Env, _ *Services) bool { return job.Available(env) }},
	// recipe exists with recipe.enabled when the project has a task
	// runner with tasks (Services.Recipes); it runs them through bash.
	{"recipe", newRecipe, recipeAvailable},
	// resolve is hidden (tool.Hidden): offered only while ast_edit or
	// another previewing tool has an action pending in the session's
	// queue (Services.Pending).
	{"resolve", func(_ *tool.Env, svc *Services) tool.Tool { return resolve.New(svc.Pending) }, nil},
	// ask needs a user to answer: offered only with a UI (RPC, TUI).
	{"ask", envOnly(ask.New), func(env *tool.Env, _ *Services) bool { return ask.Available(env) }},
	// debug (DAP) exists with debug.enabled; its session lives in
	// Services.Debug.
	{"debug", func(env *tool.Env, svc *Services) tool.Tool { return debug.New(env, svc.Debug) },
		func(env *tool.Env, _ *Services) bool { return debug.Available(env) }},
	// browser exists with browser.enabled when a Chromium is installed;
	// its Chromium and tabs are Services.Browser.
	{"browser", func(env *tool.Env, svc *Services) tool.Tool {
		return browser.NewGated(env, svc.Browser, screenshotGate(env, svc))
	},
		func(env *tool.Env, _ *Services) bool { return browser.Available(env) }},
	// calc exists with calc.enabled (off by default, as in omp).
	{"calc", envOnly(calc.New), func(env *tool.Env, _ *Services) bool { return calc.Available(env) }},
	// eval exists while a runtime is on (eval.py, eval.js, PI_PY); its
	// Python kernels and JavaScript context live in Services.Eval.
	{"eval", newEval, evalAvailable},
	// ssh exists when an ssh.json file names a host.
	{"ssh", envOnly(sshtool.New), func(env *tool.Env, _ *Services) bool { return sshtool.Available(env) }},
	// github exists with github.enabled (off by default, as in omp) when
	// gh is on PATH.
	{"github", envOnly(github.New), func(env *tool.Env, _ *Services) bool { return github.Available(env) }},
	// checkpoint and rewind exist with checkpoint.enabled, in top-level
	// sessions only; they share Services.Checkpoint.
	{"checkpoint", func(_ *tool.Env, svc *Services) tool.Tool {
		return checkpoint.NewCheckpoint(svc.Checkpoint, topLevel(svc))
	}, checkpointAvailable},
	{"rewind", func(_ *tool.Env, svc *Services) tool.Tool { return checkpoint.NewRewind(svc.Checkpoint, topLevel(svc)) },
		checkpointAvailable},
	// task needs a session to start subagents from (Services.Subagents),
	// and room in the task tree (task.maxRecursionDepth).
	{"task", newTask, func(_ *tool.Env, svc *Services) bool { return task.Available(svc.Subagents) }},
	// web_search exists with web_search.enabled when a search provider
	// has its key or endpoint (core/websearch).
	{"web_search", envOnly(websearch.New), func(env *tool.Env, _ *Services) bool { return websearch.Available(env) }},
	// recall, retain and reflect exist with memory.backend=hindsight: the
	// session's bank is Services.Memory.
	// irc, between the agents of a session tree; the main agent has it
	// only with async.enabled, since otherwise nothing runs beside it.
	{irc.Name, func(_ *tool.Env, svc *Services) tool.Tool { return irc.New(svc.IRC, svc.AgentID) }, ircAvailable},
	{memory.RecallName, func(_ *tool.Env, svc *Services) tool.Tool { return memory.NewRecall(svc.Memory) }, memoryAvailable},
	{memory.RetainName, func(_ *tool.Env, svc *Services) tool.Tool { return memory.NewRetain(svc.Memory) }, memoryAvailable},
	{memory.ReflectName, func(_ *tool.Env, svc *Services) tool.Tool { return memory.NewReflect(svc.Memory) }, memoryAvailable},
}

// ircAvailable says whether irc is offered: irc.enabled, an agent
// directory and an id, and for the main agent async.enabled.
func ircAvailable(env *tool.Env, svc *Services) bool {
	return env.Settings.IRCEnabled && svc.IRC != nil && svc.AgentID != "" &&
		(svc.AgentID != irc.MainID || env.Settings.Bash.AsyncEnabled)
}

// memoryAvailable says whether the memory tools are offered: the
// session has a hindsight bank.
func memoryAvailable(_ *tool.Env, svc *Services) bool { return svc.Memory != nil }

// newTask builds the task tool over the session's subagent host, jobs and
// task ids.
func newTask(env *tool.Env, svc *Services) tool.Tool {
	return task.New(env, svc.Subagents, svc.Jobs, svc.TaskIDs)
}

// newRecipe builds the recipe tool over the project's runners, running
// its commands through a bash tool of the session's shell and jobs.
func newRecipe(env *tool.Env, svc *Services) tool.Tool {
	return recipe.New(bash.New(env, svc.Jobs, svc.Shell), svc.Recipes.Runners())
}

// recipeAvailable says whether recipe is offered: recipe.enabled and a
// runner with tasks in the project.
func recipeAvailable(env *tool.Env, svc *Services) bool {
	return env.Settings.RecipeEnabled && len(svc.Recipes.Runners()) > 0
}

// topLevel reports whether the session of svc is one the user started,
// not a subagent (a session without a subagent host counts as one).
func topLevel(svc *Services) bool {
	return svc.Subagents == nil || svc.Subagents.Position().Depth == 0
}

// checkpointAvailable says whether checkpoint and rewind are offered:
// checkpoint.enabled, in a top-level session.
func checkpointAvailable(env *tool.Env, svc *Services) bool {
	return env.Settings.CheckpointEnabled && topLevel(svc)
}

// envOnly is the factory of a tool that needs no service.
func envOnly(New func(*tool.Env) tool.Tool) Factory {
	return func(env *tool.Env, _ *Services) tool.Tool { return New(env) }
}

// Builtins returns the table of built-in tools.
func Builtins() []Entry { return append([]Entry(nil), builtins...) }

// Names returns the built-in tool names in table order.
func Names() []string {
	names := make([]string, len(builtins))
	for i, e := range builtins {
		names[i] = e.Name
	}
	return names
}

// New builds the named built-in tool for env and svc.
func New(name string, env *tool.Env, svc *Services) (tool.Tool, error) {
	for _, e := range builtins {
		if e.Name == name {
			return e.New(env, svc), nil
		}
	}
	return nil, fmt.Errorf("unknown tool %q; built-in tools: %s", name, strings.Join(Names(), ", "))
}

// Offered reports whether the session of env and svc can offer the
// named built-in tool (its Available check; false for an unknown name).
func Offered(name string, env *tool.Env, svc *Services) bool {
	for _, e := range builtins {
		if e.Name == name {
			return e.Available == nil || e.Available(env, svc)
		}
	}
	return false
}

// All builds every built-in tool the session of env and svc can offer.
// env.EditEnabled is set from whether the table holds an edit tool, since
// read and search only show edit anchors when one exists.
func All(env *tool.Env, svc *Services) []tool.Tool {
	env.EditEnabled = false
	for _, e := range builtins {
		if e.Name == "edit" {
			env.EditEnabled = true
		}
	}
	tools := make([]tool.Tool, 0, len(builtins))
	for _, e := range builtins {
		if e.Available == nil || e.Available(env, svc) {
			tools = append(tools, e.New(env, svc))
		}
	}
	return tools
}
