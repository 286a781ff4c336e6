package astedit

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

func setup(t *testing.T, files map[string]string, hashlines bool) (*tool.Env, *resolve.Queue) {
	t.Helper()
	if !native.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	env.EditEnabled = hashlines
	return env, resolve.NewQueue()
}

func callTool(t *testing.T, tl tool.Tool, args string) *tool.Result {
	t.Helper()
	res, err := tool.Run(context.Background(), tl, json.RawMessage(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func read(t *testing.T, env *tool.Env, name string) string {
	b, err := os.ReadFile(filepath.Join(env.Cwd, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPreviewQueueApply(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 150)
	env, q := setup(t, map[string]string{
		"a.go": "package a\n\nfunc f() {\n\told(1, \"" + long + "\")\n\told(2,\n\t\t3)\n}\n",
		"b.go": "package b\n\nvar v = old(4)\n",
	}, false)
	tl := New(env, q)
	res := callTool(t, tl, `{"ops":[{"pat":"old($$$A)","out":"neu($$$A)"}],"paths":["."]}`)
	line4 := "old(1, \"" + long + "\")"
	want := strings.Join([]string{
		"# a.go",
		"-4:2 " + line4[:PreviewWidth] + "…",
		"+4:2 " + ("neu" + line4[3:])[:PreviewWidth] + "…",
		"-5:2 old(2,",
		"+5:2 neu(2,",
		"",
		"# b.go",
		"-3:9 old(4)",
		"+3:9 neu(4)",
	}, "\n")
	if res.IsError || res.FirstText() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", res.FirstText(), want)
	}
	d := res.Details.(*Details)
	if d.Applied || d.TotalReplacements != 3 || d.FilesTouched != 2 || q.Len() != 1 {
		t.Fatalf("details %+v, queue %d", d, q.Len())
	}
	if !strings.Contains(read(t, env, "a.go"), "old(2") {
		t.Fatal("preview wrote")
	}
	out := callTool(t, resolve.New(q), `{"action":"apply","reason":"ok"}`)
	if out.FirstText() != "Applied 3 replacements in 2 files." {
		t.Fatalf("apply: %q", out.FirstText())
	}
	if got := read(t, env, "b.go"); got != "package b\n\nvar v = neu(4)\n" {
		t.Fatalf("b.go: %q", got)
	}
}

func TestStaleApplyAndDiscard(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.py": "f(1)\nf(2)\n"}, true)
	tl := New(env, q)
	res := callTool(t, tl, `{"ops":[{"pat":"f($A)","out":"g($A)"}],"paths":["a.py"]}`)
	want := "-" + hashline.Anchor(1, "f(1)") + "|f(1)\n+" + hashline.Anchor(1, "f(1)") + "|g(1)\n-" + hashline.Anchor(2, "f(2)") + "|f(2)\n+" + hashline.Anchor(2, "f(2)") + "|g(2)"
	if res.FirstText() != want {
		t.Fatalf("hashline preview:\n%s\nwant\n%s", res.FirstText(), want)
	}
	os.WriteFile(filepath.Join(env.Cwd, "a.py"), []byte("f(1)\nf(2)\nf(3)\n"), 0o644)
	out := callTool(t, resolve.New(q), `{"action":"apply","reason":"ok"}`)
	if !out.IsError || !strings.Contains(out.FirstText(), "stale") || read(t, env, "a.py") != "f(1)\nf(2)\nf(3)\n" {
		t.Fatalf("stale: %q", out.FirstText())
	}
	callTool(t, tl, `{"ops":[{"pat":"f($A)","out":"g($A)"}],"paths":["a.py"]}`)
	out = callTool(t, resolve.New(q), `{"action":"discard","reason":"no"}`)
	if out.FirstText() != "Discarded: AST edit: 3 replacements in 1 files. Reason: no" {
		t.Fatalf("discard: %q", out.FirstText())
	}
}

func TestValidationAndNoReplacements(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.py": "f(1)\n"}, false)
	tl := New(env, q)
	res := callTool(t, tl, `{"ops":[{"pat":"f($A)","out":"x"},{"pat":"f($A)","out":"y"}],"paths":["a.py"]}`)
	if !res.IsError || !strings.Contains(res.FirstText(), "Duplicate") {
		t.Fatalf("duplicate: %q", res.FirstText())
	}
	res = callTool(t, tl, `{"ops":[{"pat":"h($A)","out":"x"}],"paths":["a.py"]}`)
	if res.FirstText() != NoReplacements || q.Len() != 0 {
		t.Fatalf("none: %q", res.FirstText())
	}
	res = callTool(t, tl, `{"ops":[{"pat":"f($A)","out":"f($A)"}],"paths":["a.py"]}`)
	if res.FirstText() != NoReplacements {
		t.Fatalf("identity: %q", res.FirstText())
	}
}

func TestSessionQueue(t *testing.T) {
	t.Parallel()
	env, _ := setup(t, map[string]string{"a.py": "f(1)\n"}, false)
	q := resolve.NewQueue()
	callTool(t, New(env, q), `{"ops":[{"pat":"f($A)","out":"g($A)"}],"paths":["a.py"]}`)
	if out := callTool(t, resolve.New(q), `{"action":"apply","reason":"r"}`); out.FirstText() != "Applied 1 replacements in 1 files." {
		t.Fatalf("apply: %q", out.FirstText())
	}
	if got := read(t, env, "a.py"); got != "g(1)\n" {
		t.Fatalf("a.py: %q", got)
	}
}

func TestNoReplacementsNamesUnsupported(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.py": "f(1)\n", "c.toml": "x = 1\n"}, false)
	res := callTool(t, New(env, q), `{"ops":[{"pat":"h($A)","out":"x"}],"paths":["."]}`)
	if res.FirstText() != NoReplacements+"\n\n1 toml files not searched: no toml grammar is built in" {
		t.Fatalf("none: %q", res.FirstText())
	}
	res = callTool(t, New(env, q), `{"ops":[{"pat":"f($A)","out":"g($A)"}],"paths":["."]}`)
	if res.FirstText() != "# a.py\n-1:1 f(1)\n+1:1 g(1)\n\n1 toml files not searched: no toml grammar is built in" {
		t.Fatalf("preview: %q", res.FirstText())
	}
}

// immutable makes name in env's directory impossible to replace, even for
// root, or skips the test where the file system cannot.
func immutable(t *testing.T, path string) {
	t.Helper()
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
}

// A file that cannot be replaced (here immutable, which stops even root)
// fails the apply before anything is written: the checks run on every
// file before the first is replaced, so the rewrite does not stop part way.
// (The report of a rewrite that does stop part way, when a rename fails,
// is tested in package ast with a failing commit.)
func TestApplyUnwritableFileWritesNothing(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n", "c.py": "f(3)\n"}, false)
	callTool(t, New(env, q), `{"ops":[{"pat":"f($A)","out":"g($A)"}],"paths":["."]}`)
	immutable(t, filepath.Join(env.Cwd, "b.py"))
	out := callTool(t, resolve.New(q), `{"action":"apply","reason":"ok"}`)
	if text := out.FirstText(); !out.IsError || !strings.Contains(text, "b.py is read-only (it is marked immutable)") || !strings.Contains(text, "chattr -i") {
		t.Fatalf("apply: %q", text)
	}
	if read(t, env, "a.py") != "f(1)\n" || read(t, env, "b.py") != "f(2)\n" || read(t, env, "c.py") != "f(3)\n" {
		t.Fatal("files changed")
	}
}

// TestStaleSameCounts changes the matched code between preview and apply
// without changing any count: the apply must refuse and write nothing,
// since the model never saw the new code.
func TestStaleSameCounts(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.py": "f(1)\nf(2)\n"}, false)
	callTool(t, New(env, q), `{"ops":[{"pat":"f($A)","out":"g($A)"}],"paths":["a.py"]}`)
	os.WriteFile(filepath.Join(env.Cwd, "a.py"), []byte("f(1)\nf(99)\n"), 0o644)
	out := callTool(t, resolve.New(q), `{"action":"apply","reason":"ok"}`)
	if !out.IsError || !strings.Contains(out.FirstText(), "no longer what it showed") {
		t.Fatalf("apply after a same-count change: %q", out.FirstText())
	}
	if got := read(t, env, "a.py"); got != "f(1)\nf(99)\n" {
		t.Fatalf("file rewritten: %q", got)
	}
}

// A rewrite refused because it would add a syntax error is named to the
// model with the parse issues (ast keeps refusals apart from them).
func TestRefusedRewriteIsReported(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.js": "old(1);\n"}, false)
	res := callTool(t, New(env, q), `{"ops":[{"pat":"old($A)","out":"neu($A"}],"paths":["."]}`)
	d, ok := res.Details.(*Details)
	if !ok || len(d.ParseErrors) != 1 || !strings.Contains(d.ParseErrors[0], "rewrite not applied") {
		t.Fatalf("%q %+v", res.FirstText(), res.Details)
	}
}
