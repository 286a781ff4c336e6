package extensions

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// loadLogged loads one module with the given tool budget; what its
// console.log prints arrives on the returned channel.
func loadLogged(t *testing.T, entry Entry, budget time.Duration) (*Runtime, <-chan string) {
	t.Helper()
	logs := make(chan string, 64)
	r := Load(context.Background(), []Entry{entry}, Options{ToolBudget: budget, Log: func(_, msg string) { logs <- msg }})
	t.Cleanup(r.Close)
	if errs := r.Errors(); len(errs) != 0 {
		t.Fatal(errs)
	}
	return r, logs
}

func toolNamed(t *testing.T, r *Runtime, name string) tool.Tool {
	t.Helper()
	for _, x := range r.Tools() {
		if x.Definition().Name == name {
			return x
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// An extension tool that never answers, or loops, fails at its time
// limit with a message naming the setting that raises it, and the call
// is cancelled: its signal is aborted and its abort listeners and
// onabort run. The limit is the call's context deadline, the path an
// abort takes too.
func TestToolTimeLimitCancelsTheCall(t *testing.T) {
	p := writeExt(t, t.TempDir(), "stuck.js", `export default function (pi) {
	pi.registerTool({ name: "stuck", description: "Never answers", parameters: { type: "object", properties: {} },
		execute(id, params, signal) {
			signal.addEventListener("abort", () => console.log("listener: aborted=" + signal.aborted));
			signal.onabort = () => console.log("onabort");
			return new Promise(() => {});
		} });
	pi.registerTool({ name: "spin", description: "Loops", parameters: { type: "object", properties: {} },
		execute() { for (;;) {} } });
	pi.registerTool({ name: "quick", description: "Answers", parameters: { type: "object", properties: {} },
		execute(id, params, signal) { signal.addEventListener("abort", () => console.log("quick aborted")); return "done"; } });
}`)
	r, logs := loadLogged(t, Entry{Path: p}, 300*time.Millisecond)
	for _, name := range []string{"stuck", "spin"} {
		res, err := tool.Run(context.Background(), toolNamed(t, r, name), []byte(`{}`), nil)
		want := "The tool " + name + " did not finish within 300ms and was cancelled. If it needs longer, raise tools.extensionTimeoutMs (milliseconds) in the settings."
		if err != nil || !res.IsError || res.FirstText() != want {
			t.Errorf("%s: %v %q", name, err, res.FirstText())
		}
	}
	if a, b := <-logs, <-logs; a != "listener: aborted=true" || b != "onabort" {
		t.Errorf("the call was not cancelled: %q, %q", a, b)
	}
	// A call that answers in time fires nothing, and the engine still
	// works after the two that ran out.
	if res, err := tool.Run(context.Background(), toolNamed(t, r, "quick"), []byte(`{}`), nil); err != nil || res.FirstText() != "done" {
		t.Fatalf("quick: %v %+v", err, res)
	}
	if err := r.vm.do(time.Minute, func(*gojaRuntime) error { return nil }); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-logs:
		t.Errorf("unexpected: %q", msg)
	default:
	}
}

// A custom tool that runs past its limit is cancelled like an aborted
// one: the program it started through pi.exec with the call's signal is
// killed (it was left running), whether the limit or the caller (the
// user's Esc) ends the call.
func TestStoppedCustomToolKillsItsProgram(t *testing.T) {
	p := writeExt(t, t.TempDir(), "tools/waits.js", `export default function (pi) {
	return { name: "waits", description: "Runs a long program", parameters: { type: "object", properties: {} },
		async execute(id, params, onUpdate, ctx, signal) {
			const run = pi.exec("sleep", ["600"], { signal });
			console.log("started");
			const r = await run;
			console.log("exec ended killed=" + r.killed);
			return "finished";
		} };
}`)
	for _, budget := range []time.Duration{300 * time.Millisecond, time.Hour} {
		r, logs := loadLogged(t, Entry{Path: p, CustomTool: true}, budget)
		ctx, cancel := context.WithCancel(context.Background())
		type outcome struct {
			res *tool.Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := tool.Run(ctx, toolNamed(t, r, "waits"), []byte(`{}`), nil)
			done <- outcome{res, err}
		}()
		if msg := <-logs; msg != "started" {
			t.Fatalf("log %q", msg)
		}
		if budget == time.Hour {
			cancel()
		}
		o := <-done
		switch {
		case budget == time.Hour && !errors.Is(o.err, tool.ErrAborted):
			t.Errorf("aborted: the call ended with %v", o.err)
		case budget != time.Hour && (o.err != nil || !strings.Contains(o.res.FirstText(), "did not finish within 300ms")):
			t.Errorf("timed out: %v %+v", o.err, o.res)
		}
		if msg := <-logs; msg != "exec ended killed=true" {
			t.Errorf("%v: the program was not killed: %q", budget, msg)
		}
		cancel()
	}
}
