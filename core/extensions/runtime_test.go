package extensions

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

func writeExt(t testing.TB, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// guard is an omp-style extension: a TypeScript module with type-only
// imports, a relative import, a tool with a pi.zod schema, a blocking
// tool_call handler, a tool_result rewrite and a command.
const guard = `
import type { ExtensionAPI } from "@oh-my-pi/pi-coding-agent";
import { greeting } from "./lib/greet";

interface Args { name: string; times?: number }

export default function (pi: ExtensionAPI) {
	const { z } = pi.zod;
	pi.on("tool_call", async (event) => {
		if (event.toolName === "bash" && String(event.input.command).includes("rm -rf")) {
			return { block: true, reason: "Blocked by policy: no rm -rf" };
		}
	});
	pi.on("tool_result", (event) => {
		if (event.toolName === "read") {
			return { content: [{ type: "text", text: "[checked] " + event.content[0].text }] };
		}
	});
	pi.registerTool({
		name: "hello",
		label: "Hello",
		description: "Greets someone",
		parameters: z.object({ name: z.string().describe("who"), times: z.number().optional() }),
		async execute(id: string, params: Args) {
			await new Promise((res) => setTimeout(res, 5));
			return { content: [{ type: "text", text: greeting(params.name).repeat(params.times ?? 1) }], details: { id } };
		},
	});
	pi.registerCommand("shout", { description: "says it loudly", handler: async (args) => { (globalThis as any).shouted = args.toUpperCase(); } });
}
`

func TestLoadToolsHooksAndCommands(t *testing.T) {
	dir := t.TempDir()
	writeExt(t, dir, "lib/greet.ts", `export const greeting = (n: string): string => "Hello, " + n + "! ";`)
	path := writeExt(t, dir, "guard.ts", guard)
	r := Load(context.Background(), []Entry{{Path: path, Name: "guard"}}, Options{})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	// The tool, with its schema.
	tools := r.Tools()
	if len(tools) != 1 {
		t.Fatalf("%d tools", len(tools))
	}
	def := tools[0].Definition()
	if def.Name != "hello" || def.Parameters.Properties["name"].Description != "who" || len(def.Parameters.Required) != 1 {
		b, _ := json.Marshal(def.Parameters)
		t.Fatalf("definition %s %s", def.Name, b)
	}
	res, err := tools[0].Execute(context.Background(), tool.Args{"name": "gopi", "times": 2.0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*tool.TextContent).Text; got != "Hello, gopi! Hello, gopi! " {
		t.Errorf("tool result %q", got)
	}
	// tool_call blocks, tool_result rewrites.
	hooks := r.Hooks()
	if len(hooks) != 1 || hooks[0].ToolCall == nil || hooks[0].ToolResult == nil {
		t.Fatalf("hooks %+v", hooks)
	}
	d, _ := hooks[0].ToolCall(context.Background(), &agent.ToolCallInfo{Name: "bash", Args: tool.Args{"command": "rm -rf /"}})
	if d == nil || !d.Block || d.Reason != "Blocked by policy: no rm -rf" {
		t.Errorf("decision %+v", d)
	}
	if d, _ := hooks[0].ToolCall(context.Background(), &agent.ToolCallInfo{Name: "bash", Args: tool.Args{"command": "ls"}}); d != nil {
		t.Errorf("ls was blocked: %+v", d)
	}
	o, err := hooks[0].ToolResult(context.Background(), &agent.ToolCallInfo{Name: "read"}, &tool.Result{Content: []tool.Content{tool.Text("body")}})
	if err != nil || o == nil || o.Content[0].(*tool.TextContent).Text != "[checked] body" {
		t.Errorf("override %+v %v", o, err)
	}
	// The command.
	cmds := r.Commands()
	if len(cmds) != 1 || cmds[0].Name != "shout" || cmds[0].Description != "says it loudly" {
		t.Fatalf("commands %+v", cmds)
	}
	if err := cmds[0].Run(context.Background(), "hi there"); err != nil {
		t.Fatal(err)
	}
	var shouted string
	r.vm.do(time.Second, func(rt *gojaRuntime) error { shouted = rt.Get("shouted").String(); return nil })
	if shouted != "HI THERE" {
		t.Errorf("command ran with %q", shouted)
	}
}

// A broken module, a module without a factory, one that throws and one
// that acts while loading are reported; the good one still loads.
func TestLoadErrorsAreIsolated(t *testing.T) {
	dir := t.TempDir()
	good := writeExt(t, dir, "good.js", `export default function (pi) { pi.registerCommand("ok", { handler() {} }); }`)
	syntax := writeExt(t, dir, "syntax.ts", `export default function (pi) { pi.on("x", () => { }`)
	noFactory := writeExt(t, dir, "nofactory.js", `export const x = 1;`)
	throws := writeExt(t, dir, "throws.js", `export default function () { throw new Error("boom at load"); }`)
	early := writeExt(t, dir, "early.js", `export default function (pi) { pi.sendMessage({ customType: "x", content: "hi" }); }`)
	node := writeExt(t, dir, "node.js", `import zlib from "zlib"; export default function () { zlib.gzipSync("x"); }`)
	r := Load(context.Background(), []Entry{{Path: syntax}, {Path: noFactory}, {Path: throws}, {Path: early}, {Path: node}, {Path: good}}, Options{})
	defer r.Close()
	errs := r.Errors()
	want := map[string]string{syntax: "cannot bundle", noFactory: "does not export a function", throws: "boom at load",
		early: "ExtensionRuntimeNotInitializedError", node: "without Node.js"}
	if len(errs) != len(want) {
		t.Fatalf("errors %v", errs)
	}
	for _, e := range errs {
		if !strings.Contains(e.Err, want[e.Path]) || e.Event != "load" {
			t.Errorf("%s: %q, want it to say %q", e.Path, e.Err, want[e.Path])
		}
	}
	if got := r.Loaded(); len(got) != 1 || got[0] != good {
		t.Errorf("loaded %v", got)
	}
}

// A handler that never returns is stopped at its budget, and the engine
// goes on serving the others.
func TestHandlerBudget(t *testing.T) {
	dir := t.TempDir()
	p := writeExt(t, dir, "loop.js", `export default function (pi) {
		pi.on("tool_call", (e) => { if (e.toolName === "spin") { for (;;) {} } });
		pi.on("tool_call", (e) => e.toolName === "never" ? new Promise(() => {}) : undefined);
	}`)
	var mu sync.Mutex
	var reported []LoadError
	r := Load(context.Background(), []Entry{{Path: p}}, Options{Budget: 200 * time.Millisecond, OnError: func(e LoadError) { mu.Lock(); reported = append(reported, e); mu.Unlock() }})
	defer r.Close()
	h := r.Hooks()[0]
	for _, name := range []string{"spin", "never"} {
		start := time.Now()
		d, _ := h.ToolCall(context.Background(), &agent.ToolCallInfo{Name: name})
		if d == nil || !d.Block || !strings.Contains(d.Reason, "time budget") {
			t.Errorf("%s: %+v", name, d)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("%s took %v", name, time.Since(start))
		}
	}
	if d, _ := h.ToolCall(context.Background(), &agent.ToolCallInfo{Name: "fine"}); d != nil {
		t.Errorf("the engine did not recover: %+v", d)
	}
}

// Timers fire on the engine's goroutine; Close stops those still pending.
func TestTimersAndClose(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// The interval is cleared by another timer once it has ticked three
	// times; a while after the clear, the count is taken again.
	p := writeExt(t, dir, "timers.js", `export default function (pi) {
		globalThis.ticks = 0;
		const id = setInterval(() => {
			if (++globalThis.ticks === 3) {
				setTimeout(() => {
					clearInterval(id);
					globalThis.stopped = globalThis.ticks;
					setTimeout(() => { globalThis.after = globalThis.ticks; }, 30);
				}, 0);
			}
		}, 5);
		setTimeout(() => { globalThis.late = true; }, 60000);
	}`)
	r := Load(context.Background(), []Entry{{Path: p}}, Options{})
	var stopped, after int64
	testwait.Until(t, "the count taken after the interval was cleared", func() bool {
		r.vm.do(10*time.Second, func(rt *gojaRuntime) error {
			if v := rt.Get("after"); v != nil && !goja.IsUndefined(v) {
				stopped, after = rt.Get("stopped").ToInteger(), v.ToInteger()
			}
			return nil
		})
		return after != 0
	})
	if stopped < 3 || after != stopped {
		t.Errorf("%d ticks when the interval was cleared, %d afterwards", stopped, after)
	}
	r.Close()
	if err := r.vm.do(time.Second, func(*gojaRuntime) error { return nil }); err != errClosed {
		t.Errorf("after close: %v", err)
	}
}

func TestResolve(t *testing.T) {
	root := t.TempDir()
	cwd, agentDir := filepath.Join(root, "proj"), filepath.Join(root, "agent")
	a := writeExt(t, cwd, ".gopi/extensions/a.ts", "")
	writeExt(t, cwd, ".gopi/extensions/types.d.ts", "")
	b := writeExt(t, cwd, ".omp/extensions/pack/index.ts", "")
	writeExt(t, cwd, ".omp/extensions/pack/index.js", "")
	c := writeExt(t, agentDir, "extensions/multi/src/c.ts", "")
	writeExt(t, agentDir, "extensions/multi/package.json", `{"omp":{"extensions":["./src/c.ts","./missing.ts"]}}`)
	d := writeExt(t, root, "explicit/d.js", "")
	off := writeExt(t, agentDir, "extensions/off.ts", "")
	got, errs := Resolve(Sources{Cwd: cwd, AgentDirs: []string{agentDir}, Paths: []string{d, a, filepath.Join(root, "nope.ts")},
		Disabled: []string{"extension-module:off"}})
	var paths []string
	for _, e := range got {
		paths = append(paths, e.Path)
	}
	want := []string{a, b, c, d}
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Err, "extension not found") {
		t.Errorf("errors %v", errs)
	}
	_ = off
	if NameOf(b) != "pack" || NameOf(a) != "a" {
		t.Errorf("names %s %s", NameOf(b), NameOf(a))
	}
}

type gojaRuntime = goja.Runtime
