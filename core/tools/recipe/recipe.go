// Package recipe is the recipe tool: the model runs a task of one of the
// project's task runners — just recipes, package.json scripts, cargo
// targets, make targets, Taskfile tasks — by name, without spelling the
// runner's command.
//
// The runners are detected once per session (Detector), in the project
// directory: just, cargo and task list their tasks with their own
// programs (just --dump, cargo metadata, task --list-all), package.json
// and makefiles are read as files. A runner that is missing, fails or
// has no task is left out; with none, the tool is not offered. The tool
// description lists each runner with up to PromptTaskLimit tasks and the
// command each runs (Description).
//
// A call's op is "[runner:]task tail" (Resolve): the task's command with
// the tail appended unchanged is run by the bash tool — same working
// directory checks, interceptor, timeout, output limits and artifacts —
// and needs bash's permission, since the tail is free shell text.
package recipe

import (
	"context"

	"github.com/gopi-agent/gopi/core/tool"
)

// Name is the tool's name.
const Name = "recipe"

// Tool is the recipe tool of a session.
type Tool struct {
	bash    tool.Tool
	runners []*Runner
}

// New returns the tool over the detected runners, running commands
// through bash (the session's bash tool).
func New(bash tool.Tool, runners []*Runner) *Tool {
	return &Tool{bash: bash, runners: runners}
}

// Definition describes the tool; its description lists the runners.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        Name,
		Label:       "Run",
		Description: Description(t.runners),
		Parameters: tool.Object(map[string]*tool.Schema{
			"op": {Type: "string", Description: `task name and args, e.g. "test" or "build --release"`,
				Examples: []any{"test", "build --release", "pkg:test --watch"}},
		}, "op"),
		Concurrency: tool.Exclusive,
	}
}

// args decodes the op of a call.
func args(a tool.Args) (string, error) {
	var in struct {
		Op string `json:"op"`
	}
	err := a.Decode(&in)
	return in.Op, err
}

// Access says a call runs a shell command: it needs bash's permission,
// and the question shows the command. An op that names no task needs
// none (it fails without running anything).
func (t *Tool) Access(a tool.Args) tool.Access {
	op, err := args(a)
	if err != nil {
		return tool.Access{}
	}
	r, err := Resolve(op, t.runners)
	if err != nil {
		return tool.Access{}
	}
	summary := "$ " + r.Command
	if r.Dir != "" {
		summary += "\n(in " + r.Dir + ")"
	}
	return tool.Access{Tool: "bash", Writes: true, Summary: summary}
}

// Execute resolves the op and runs its command through bash.
func (t *Tool) Execute(ctx context.Context, a tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	op, err := args(a)
	if err != nil {
		return nil, err
	}
	r, err := Resolve(op, t.runners)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	call := tool.Args{"command": r.Command}
	if r.Dir != "" {
		call["cwd"] = r.Dir
	}
	return t.bash.Execute(ctx, call, onUpdate)
}
