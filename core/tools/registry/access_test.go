package registry

import (
	"context"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/resolve"
)

// What each built-in call does, as permission gates see it: the tools
// that only read say so, the ones that write or run do not, and the
// calls that answer for another tool (or for none) report it.
func TestBuiltinAccess(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	queue := svc.Pending
	queue.Push(&resolve.Action{Label: "AST edit: 1 replacements in 1 files", SourceTool: "ast_edit",
		Apply: func(context.Context, string) (*tool.Result, error) { return tool.TextResult("applied", nil), nil }})
	for _, tc := range []struct {
		tool string
		args tool.Args
		want tool.Access
	}{
		{"read", tool.Args{"path": "a"}, tool.Access{Tool: "read"}},
		{"search", tool.Args{"pattern": "a"}, tool.Access{Tool: "search"}},
		{"find", tool.Args{}, tool.Access{Tool: "find"}},
		{"ast_grep", tool.Args{}, tool.Access{Tool: "ast_grep"}},
		{"todo_write", tool.Args{}, tool.Access{Tool: "todo_write"}},
		{"calc", tool.Args{}, tool.Access{Tool: "calc"}},
		{"ask", tool.Args{}, tool.Access{Tool: "ask"}},
		{"bash", tool.Args{"command": "ls"}, tool.Access{Tool: "bash", Writes: true}},
		{"ssh", tool.Args{"host": "web", "command": "ls"}, tool.Access{Tool: "ssh", Writes: true}},
		{"write", tool.Args{"path": "a"}, tool.Access{Tool: "write", Writes: true}},
		{"edit", tool.Args{"path": "a"}, tool.Access{Tool: "edit", Writes: true}},
		{"ast_edit", tool.Args{}, tool.Access{}}, // a preview: resolve asks
		{"task", tool.Args{}, tool.Access{}},     // its subagents ask
		{"resolve", tool.Args{"action": "discard"}, tool.Access{}},
		{"resolve", tool.Args{"action": "apply"}, tool.Access{Tool: "ast_edit", Writes: true, Summary: "Apply AST edit: 1 replacements in 1 files"}},
		{"job", tool.Args{"list": true}, tool.Access{Tool: "job"}},
		{"job", tool.Args{"poll": []any{"j1"}}, tool.Access{Tool: "job"}},
		{"job", tool.Args{"cancel": []any{"j1"}}, tool.Access{Tool: "job", Writes: true}},
		{"debug", tool.Args{"action": "threads"}, tool.Access{Tool: "debug"}},
		{"debug", tool.Args{"action": "launch", "program": "a"}, tool.Access{Tool: "debug", Writes: true}},
		{"debug", tool.Args{"action": "evaluate", "expression": "f()"}, tool.Access{Tool: "debug", Writes: true}},
	} {
		tl, err := New(tc.tool, env, svc)
		if err != nil {
			t.Fatal(err)
		}
		if got := tool.CallAccess(tl, tc.args); got != tc.want {
			t.Errorf("%s %v: %+v, want %+v", tc.tool, tc.args, got, tc.want)
		}
	}
}
