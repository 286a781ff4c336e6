package exitplan_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit"
	"github.com/gopi-agent/gopi/core/tools/exitplan"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/core/tools/write"
)

// planEnv is an Env with an artifacts directory and plan mode on.
func planEnv(t *testing.T) (*tool.Env, string) {
	t.Helper()
	root := t.TempDir()
	env := tool.NewEnv(filepath.Join(root, "project"))
	if err := os.MkdirAll(env.Cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	env.Artifacts = artifact.NewStore(filepath.Join(root, "session"))
	plan := env.Resolve("local://PLAN.md")
	env.SetPlanMode(&tool.PlanMode{File: "local://PLAN.md", Abs: plan})
	return env, plan
}

func run(t *testing.T, tl tool.Tool, args string) *tool.Result {
	t.Helper()
	res, _ := tool.Run(context.Background(), tl, json.RawMessage(args), nil)
	return res
}

func TestExitPlanMode(t *testing.T) {
	env, plan := planEnv(t)
	if want := filepath.Join(env.Artifacts.Dir(), "local", "PLAN.md"); plan != want {
		t.Fatalf("local://PLAN.md resolves to %s, want %s", plan, want)
	}
	tl := exitplan.New(env)
	if res := run(t, tl, `{"title":"DB_PLAN"}`); !res.IsError || !strings.Contains(res.FirstText(), "Plan file not found at local://PLAN.md. Write the finalized plan to local://PLAN.md before calling exit_plan_mode.") {
		t.Fatalf("no plan file: %+v", res.FirstText())
	}
	// The model writes the plan with the write tool, under its URL.
	if res := run(t, write.New(env), `{"path":"local://PLAN.md","content":"# Plan\n1. do it\n"}`); res.IsError {
		t.Fatalf("write the plan: %s", res.FirstText())
	}
	if res := run(t, read.New(env, nil), `{"path":"local://PLAN.md"}`); res.IsError || !strings.Contains(res.FirstText(), "do it") {
		t.Fatalf("read the plan: %s", res.FirstText())
	}
	for title, want := range map[string]string{
		"  ":          "Title is required and must not be empty.",
		"a/b":         "Title must not contain path separators or '..'.",
		"x..y":        "Title must not contain path separators or '..'.",
		"my plan":     "Title may only contain letters, numbers, underscores, or hyphens.",
		"PLAN.MD":     "Title may only contain letters, numbers, underscores, or hyphens.",
		"plan\\other": "Title must not contain path separators or '..'.",
	} {
		args, _ := json.Marshal(map[string]string{"title": title})
		if res := run(t, tl, string(args)); !res.IsError || res.FirstText() != want {
			t.Errorf("title %q: %q, want %q", title, res.FirstText(), want)
		}
	}
	res := run(t, tl, `{"title":" DB_PLAN.md "}`)
	if res.IsError || res.FirstText() != exitplan.ReadyText {
		t.Fatalf("ready: %s", res.FirstText())
	}
	d := res.Details.(*exitplan.Details)
	if *d != (exitplan.Details{PlanFilePath: "local://PLAN.md", PlanExists: true, Title: "DB_PLAN", FinalPlanFilePath: "local://DB_PLAN.md"}) {
		t.Fatalf("details %+v", d)
	}
	env.SetPlanMode(nil)
	if res := run(t, tl, `{"title":"DB_PLAN"}`); !res.IsError || res.FirstText() != "Plan mode is not active." {
		t.Fatalf("outside plan mode: %s", res.FirstText())
	}
}

// TestPlanModeGuard: while planning, the file tools change the plan file
// only; a bare PLAN.md is the plan file.
func TestPlanModeGuard(t *testing.T) {
	env, plan := planEnv(t)
	src := filepath.Join(env.Cwd, "main.go")
	if err := os.WriteFile(src, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const refused = "Plan mode: only the plan file may be modified (local://PLAN.md)."
	if res := run(t, write.New(env), `{"path":"main.go","content":"x"}`); !res.IsError || res.FirstText() != refused {
		t.Fatalf("write: %s", res.FirstText())
	}
	ed := edit.NewMode(env, tool.EditReplace)
	if res := run(t, ed, `{"path":"main.go","edits": [{"old_text":"package main","new_text":"package other"}]}`); !res.IsError || !strings.Contains(res.FirstText(), refused) {
		t.Fatalf("edit: %s", res.FirstText())
	}
	if b, _ := os.ReadFile(src); string(b) != "package main\n" {
		t.Fatalf("main.go changed: %q", b)
	}
	if res := run(t, write.New(env), `{"path":"PLAN.md","content":"# Plan\n"}`); res.IsError {
		t.Fatalf("write PLAN.md: %s", res.FirstText())
	}
	if _, err := os.Stat(filepath.Join(env.Cwd, "PLAN.md")); err == nil {
		t.Fatal("PLAN.md was written into the project")
	}
	if res := run(t, ed, `{"path":"local://PLAN.md","edits": [{"old_text":"# Plan","new_text":"# Better plan"}]}`); res.IsError {
		t.Fatalf("edit the plan: %s", res.FirstText())
	}
	if b, _ := os.ReadFile(plan); string(b) != "# Better plan\n" {
		t.Fatalf("plan: %q", b)
	}
	env.SetPlanMode(nil)
	if res := run(t, write.New(env), `{"path":"main.go","content":"package main\n\nfunc main() {}\n"}`); res.IsError {
		t.Fatalf("write after plan mode: %s", res.FirstText())
	}
}

// The default edit mode (hashline) edits the plan by its URL, with the
// anchors read shows for it.
func TestPlanHashlineEdit(t *testing.T) {
	env, plan := planEnv(t)
	if res := run(t, write.New(env), `{"path":"local://PLAN.md","content":"# Plan\nstep one\n"}`); res.IsError {
		t.Fatalf("write: %s", res.FirstText())
	}
	res := run(t, read.New(env, nil), `{"path":"local://PLAN.md"}`)
	var anchor string
	for _, line := range strings.Split(res.FirstText(), "\n") {
		if strings.HasSuffix(line, "|step one") {
			anchor = strings.TrimSuffix(line, "|step one")
		}
	}
	if anchor == "" {
		t.Fatalf("no anchor in:\n%s", res.FirstText())
	}
	in, _ := json.Marshal(map[string]string{"input": "@@ local://PLAN.md\n= " + anchor + ".." + anchor + "\n~step one, done well\n"})
	if res := run(t, edit.NewMode(env, tool.EditHashline), string(in)); res.IsError {
		t.Fatalf("hashline edit: %s", res.FirstText())
	}
	if b, _ := os.ReadFile(plan); string(b) != "# Plan\nstep one, done well\n" {
		t.Fatalf("plan: %q", b)
	}
}
