package permission

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

func TestPolicy(t *testing.T) {
	write := func(name string) tool.Access { return tool.Access{Tool: name, Writes: true} }
	read := func(name string) tool.Access { return tool.Access{Tool: name} }
	for _, tc := range []struct {
		patterns []string
		access   tool.Access
		want     bool
	}{
		{nil, write("bash"), false},
		{[]string{"*"}, write("bash"), true},
		{[]string{"*"}, write("mcp__github__create_issue"), true},
		{[]string{"*"}, read("read"), false},   // a pattern covers only calls that write or run
		{[]string{"*"}, tool.Access{}, false},  // no subject: nothing to ask (task, ast_edit previews)
		{[]string{"read"}, read("read"), true}, // an exact name covers every call of the tool
		{[]string{"bash", "write"}, write("edit"), false},
		{[]string{"mcp__*"}, write("mcp__fs__write"), true},
		{[]string{"mcp__*"}, read("mcp__fs__list"), false}, // the server's readOnlyHint
		{[]string{"mcp__*"}, write("bash"), false},
		{[]string{"*", "!bash"}, write("bash"), false}, // exclusions win
		{[]string{"*", "!bash"}, write("write"), true},
		{[]string{"bash", "!bash"}, write("bash"), false},
		{[]string{"*", "!mcp__*"}, write("mcp__fs__write"), false},
		{[]string{" bash "}, write("bash"), true},
		{[]string{"ba?h"}, write("bash"), true},
	} {
		p, err := ParsePolicy(tc.patterns)
		if err != nil {
			t.Fatalf("%q: %v", tc.patterns, err)
		}
		if got := p.Requires(tc.access); got != tc.want {
			t.Errorf("%q requires %+v: %v, want %v", tc.patterns, tc.access, got, tc.want)
		}
	}
}

func TestPolicyErrors(t *testing.T) {
	for _, tc := range []struct {
		patterns []string
		want     string
	}{
		{[]string{"bash", ""}, `entry 2 ("") names no tool`},
		{[]string{"!"}, `entry 1 ("!") names no tool`},
		{[]string{"[bash"}, `entry 1 ("[bash") is not a valid pattern`},
	} {
		_, err := ParsePolicy(tc.patterns)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.patterns, err, tc.want)
		}
	}
	_, err := New(Options{Require: []string{"[x"}, Setting: "tui.requirePermission"})
	if err == nil || !strings.HasPrefix(err.Error(), "setting tui.requirePermission: entry 1") {
		t.Errorf("New: %v", err)
	}
}
