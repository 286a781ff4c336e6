// Package registry lists the built-in tools and builds them for a session.
//
// Each built-in is one line of the builtins table: its name and its
// constructor, func(*tool.Env) tool.Tool. A tool added to gopi is added
// here with one line; the order of the table is the order tools are
// offered to the model.
package registry

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/ask"
	"github.com/gopi-agent/gopi/core/tools/astedit"
	"github.com/gopi-agent/gopi/core/tools/astgrep"
	"github.com/gopi-agent/gopi/core/tools/bash"
	"github.com/gopi-agent/gopi/core/tools/edit"
	"github.com/gopi-agent/gopi/core/tools/find"
	"github.com/gopi-agent/gopi/core/tools/job"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	"github.com/gopi-agent/gopi/core/tools/search"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/core/tools/todo"
	"github.com/gopi-agent/gopi/core/tools/write"
)

// Factory builds a tool for a session.
type Factory func(env *tool.Env) tool.Tool

// Entry is one built-in tool.
type Entry struct {
	Name string  // the tool's name, as in its Definition
	New  Factory // constructor
	// Available, when set, says whether the session can offer the tool
	// (ask needs a UI); All leaves it out otherwise.
	Available func(env *tool.Env) bool
}

// builtins is the table of built-in tools, in the order they are offered.
var builtins = []Entry{
	{"read", read.New, nil},
	{"write", write.New, nil},
	{"edit", edit.New, nil},
	{"search", search.New, nil},
	{"find", find.New, nil},
	{"ast_grep", astgrep.New, nil},
	{"ast_edit", astedit.New, nil},
	{"todo_write", todo.New, func(env *tool.Env) bool { return env.Settings.TodoEnabled }},
	{"bash", bash.New, nil},
	// job exists when background jobs do (async.enabled or
	// bash.autoBackground.enabled).
	{"job", job.New, job.Available},
	// resolve is hidden (tool.Hidden): offered only while ast_edit or
	// another previewing tool has an action pending in the session's
	// queue (resolve.For(env)), which the tools built from one Env share.
	{"resolve", resolve.New, nil},
	// ask needs a user to answer: offered only with a UI (RPC, TUI).
	{"ask", ask.New, ask.Available},
	// task needs a session to start subagents from (task.Bind), and room
	// in the task tree (task.maxRecursionDepth).
	{"task", task.New, task.Available},
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

// New builds the named built-in tool for env.
func New(name string, env *tool.Env) (tool.Tool, error) {
	for _, e := range builtins {
		if e.Name == name {
			return e.New(env), nil
		}
	}
	return nil, fmt.Errorf("unknown tool %q; built-in tools: %s", name, strings.Join(Names(), ", "))
}

// All builds every built-in tool for env. env.EditEnabled is set from
// whether the table holds an edit tool, since read and search only show
// edit anchors when one exists.
func All(env *tool.Env) []tool.Tool {
	env.EditEnabled = false
	for _, e := range builtins {
		if e.Name == "edit" {
			env.EditEnabled = true
		}
	}
	tools := make([]tool.Tool, 0, len(builtins))
	for _, e := range builtins {
		if e.Available == nil || e.Available(env) {
			tools = append(tools, e.New(env))
		}
	}
	return tools
}
