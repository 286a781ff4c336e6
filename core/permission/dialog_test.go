package permission

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// selectUI answers select dialogs with pick and records them.
type selectUI struct {
	tool.UI
	pick    func(options []string) (string, error)
	title   string
	options []string
	timeout time.Duration
}

func (u *selectUI) Select(_ context.Context, title string, options []string, timeout time.Duration) (string, error) {
	u.title, u.options, u.timeout = title, options, timeout
	return u.pick(options)
}

func TestDialogAsker(t *testing.T) {
	req := bashCall("1")
	req.Agent = "0-Fix"
	for i, want := range []Answer{AllowOnce, AllowAlways, RejectOnce, RejectAlways} {
		ui := &selectUI{pick: func(o []string) (string, error) { return o[i], nil }}
		got, err := DialogAsker{UI: ui}.Ask(context.Background(), req)
		if err != nil || got != want {
			t.Errorf("option %d: %v %v, want %v", i, got, err, want)
		}
		if ui.timeout != 0 || ui.title != "Subagent 0-Fix wants to run bash. Allow it?\n$ make" {
			t.Errorf("dialog %q (timeout %v)", ui.title, ui.timeout)
		}
		if ui.options[1] != "Always allow bash in this session" {
			t.Errorf("options %q", ui.options)
		}
	}
	ui := &selectUI{pick: func([]string) (string, error) { return "yes please", nil }}
	if got, _ := (DialogAsker{UI: ui}).Ask(context.Background(), req); got != RejectOnce {
		t.Errorf("an answer that is no option: %v", got)
	}
	ui = &selectUI{pick: func([]string) (string, error) { return "", tool.ErrDialogCancelled }}
	if _, err := (DialogAsker{UI: ui}).Ask(context.Background(), req); err != tool.ErrDialogCancelled {
		t.Errorf("dismissed: %v", err)
	}
}

// A call that needs another tool's permission (recipe runs through bash)
// says so in the question, and the lasting answers name both tools: the
// answer is remembered for bash, so it holds for every bash command.
func TestDialogOtherToolsPermission(t *testing.T) {
	req := Request{Tool: "recipe", Args: map[string]any{"op": "make:forever"}, Access: tool.Access{Tool: "bash", Writes: true, Summary: "$ make forever"}}
	ui := &selectUI{pick: func(o []string) (string, error) { return o[1], nil }}
	if got, err := (DialogAsker{UI: ui}).Ask(context.Background(), req); err != nil || got != AllowAlways {
		t.Fatalf("%v %v", got, err)
	}
	if ui.title != "The agent wants to run recipe, which needs bash's permission. Allow it?\n$ make forever" {
		t.Errorf("title %q", ui.title)
	}
	if want := []string{"Allow once", "Always allow bash and recipe in this session", "Reject", "Always reject bash and recipe in this session"}; strings.Join(ui.options, "|") != strings.Join(want, "|") {
		t.Errorf("options %q", ui.options)
	}
}

// A question shows what the call does; a long one says what it leaves
// out rather than hiding a command's tail.
func TestDescribe(t *testing.T) {
	long := "echo " + strings.Repeat("x", 3000) + " && rm -rf ~"
	var lines []string
	for i := range 56 {
		lines = append(lines, fmt.Sprintf("echo %d", i))
	}
	lines[len(lines)-1] = "rm -rf ~"
	many := strings.Join(lines, "\n")
	lines[0] = "$ " + lines[0]
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{Tool: "bash", Args: map[string]any{"command": "go test ./...", "cwd": "core", "env": map[string]any{"B": "2", "A": "1"}}}, "$ go test ./...\n(in core)\n(with A=1 B=2)"},
		{Request{Tool: "write", Args: map[string]any{"path": "/etc/hosts", "content": "x"}}, "write /etc/hosts"},
		{Request{Tool: "resolve", Access: tool.Access{Summary: "Apply AST edit: 3 replacements in 2 files"}}, "Apply AST edit: 3 replacements in 2 files"},
		{Request{Tool: "mcp__gh__create_issue", Args: map[string]any{"title": "t"}}, `{"title":"t"}`},
		{Request{Tool: "bash", Args: map[string]any{"command": long}}, "$ echo " + strings.Repeat("x", 1493) + "\n… (1019 bytes not shown) …\n" + strings.Repeat("x", 488) + " && rm -rf ~"},
		{Request{Tool: "bash", Args: map[string]any{"command": many}}, strings.Join(lines[:16], "\n") + "\n… (33 lines not shown) …\n" + strings.Join(lines[49:], "\n")},
	} {
		if got := Describe(tc.req); got != tc.want {
			t.Errorf("%s: %q\nwant %q", tc.req.Tool, got, tc.want)
		}
	}
}
