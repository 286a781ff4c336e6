package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// RPC bash runs the user's command in the session's shell and answers
// with omp's BashResult; abort_bash stops a command in progress; both are
// recorded as bash executions.
func TestRPCBash(t *testing.T) {
	r := newAgentRig(t)
	r.Environ = append(r.Environ, shelltest.Mark(t))
	rr := startRPC(t, r)
	resp := rr.Call("bash", map[string]any{"command": "cd /tmp && echo hi; echo err >&2; (exit 2)"})
	var res map[string]any
	if err := json.Unmarshal(resp.Data, &res); err != nil || !resp.Success {
		t.Fatal(resp, err)
	}
	want := map[string]any{"output": "hi\nerr\n", "exitCode": 2.0, "cancelled": false, "truncated": false, "totalLines": 2.0, "totalBytes": 7.0, "outputLines": 2.0, "outputBytes": 7.0}
	if agentrig.MustMarshal(t, res) != agentrig.MustMarshal(t, want) {
		t.Fatalf("%s", resp.Data)
	}
	if resp := rr.Call("bash", map[string]any{}); resp.Success || !strings.Contains(resp.Error, `"command" is required`) {
		t.Fatal(resp)
	}
	// The shell persists (the cd above); abort_bash ends a long command.
	done := make(chan []byte)
	running := filepath.Join(t.TempDir(), "running")
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		r, _ := rr.C.Call(ctx, "bash", map[string]any{"command": "pwd; : > '" + running + "'; sleep 60"})
		done <- r.Data
	}()
	testwait.Until(t, "the long command to run", func() bool {
		_, err := os.Stat(running)
		return err == nil
	})
	if resp := rr.Call("abort_bash", nil); !resp.Success {
		t.Fatal(resp)
	}
	select {
	case data := <-done:
		res = nil
		if err := json.Unmarshal(data, &res); err != nil || res["cancelled"] != true || res["exitCode"] != nil || res["output"] != "/tmp\n" {
			t.Fatalf("%s", data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("abort_bash did not stop the command")
	}
	msgs := rr.Call("get_messages", nil)
	if n := strings.Count(string(msgs.Data), `"role":"bashExecution"`); n != 2 {
		t.Fatalf("%d bash executions in %s", n, msgs.Data)
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatal(code)
	}
}

// The end-to-end task with bash: the model adds a function with a
// bug, runs go test through bash, reads the failure, fixes the line and
// sees the tests pass.
func TestPrintModeGoTestLoop(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	gocache, err := exec.Command(goBin, "env", "GOCACHE").Output()
	if err != nil {
		t.Skip("go env GOCACHE:", err)
	}
	const calcGo = "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	const testGo = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(3, 4); got != 7 {\n\t\tt.Fatalf(\"Add(3, 4) = %d, want 7\", got)\n\t}\n}\n\nfunc TestMul(t *testing.T) {\n\tif got := Mul(3, 4); got != 12 {\n\t\tt.Fatalf(\"Mul(3, 4) = %d, want 12\", got)\n\t}\n}\n"
	addMul := "@@ calc.go\n+ " + hashline.Anchor(6, "}") + "\n~\n~// Mul returns the product of a and b.\n~func Mul(a, b int) int {\n~\treturn a + b\n~}\n"
	fix := "@@ calc.go\n= " + hashline.Anchor(10, "\treturn a + b") + ".." + hashline.Anchor(10, "\treturn a + b") + "\n~\treturn a * b\n"
	goTest := map[string]any{"command": "go test ./...", "timeout": 600}
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Adding Mul."), agentrig.ToolCall("edit", map[string]any{"input": addMul})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", goTest)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Mul adds instead of multiplying."), agentrig.ToolCall("edit", map[string]any{"input": fix})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", goTest)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Mul is added and go test passes.")}},
	)
	r.Environ = append(r.Environ, "GOCACHE="+strings.TrimSpace(string(gocache)), "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=", shelltest.Mark(t))
	r.Write("go.mod", "module calc\n\ngo 1.22\n")
	r.Write("calc.go", calcGo)
	r.Write("calc_test.go", testGo)
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "-v", "add Mul to calc.go and make the tests pass")
	if code != 0 || stdout != "Mul is added and go test passes.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// The first run failed and the model saw why.
	failed := agentrig.MustMarshal(t, r.RequestMessages(2))
	for _, want := range []string{"Mul(3, 4) = 7, want 12", "FAIL", "Command exited with code 1", `"is_error":true`} {
		if !strings.Contains(failed, want) {
			t.Errorf("the failing go test result lacks %q:\n%s", want, failed)
		}
	}
	// The second run passed.
	last := r.RequestMessages(4)
	passed := agentrig.MustMarshal(t, last[len(last)-1])
	if !strings.Contains(passed, "ok  \\tcalc") || strings.Contains(passed, `"is_error":true`) {
		t.Errorf("the passing go test result:\n%s", passed)
	}
	got, _ := os.ReadFile(filepath.Join(r.Project, "calc.go"))
	if want := calcGo + "\n// Mul returns the product of a and b.\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"; string(got) != want {
		t.Fatalf("calc.go:\n%s", got)
	}
	if i, j := strings.Index(stderr, "✗ bash"), strings.LastIndex(stderr, "✓ bash"); i < 0 || j < i {
		t.Errorf("stderr does not show a failed then a passing bash call:\n%s", stderr)
	}
}

// Several bash commands sent without waiting run one after the other, in
// the order sent, in the same shell; abort_bash also drops those still
// waiting for their turn.
func TestRPCBashCommandsQueue(t *testing.T) {
	r := newAgentRig(t)
	r.Environ = append(r.Environ, shelltest.Mark(t))
	rr := startRPC(t, r)
	got := make(chan map[string]any, 10)
	stop := rr.C.OnEvent(func(f rpcclient.Frame) {
		var v map[string]any
		if f.Type == "response" && json.Unmarshal(f.Raw, &v) == nil && strings.HasPrefix(fmt.Sprint(v["id"]), "q") {
			got <- v
		}
	})
	defer stop()
	send := func(id string, frame map[string]any) {
		frame["id"] = id
		b, _ := json.Marshal(frame)
		if _, err := rr.Stdin.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	send("q1", map[string]any{"type": "bash", "command": "sleep 0.3; cd /tmp; export QV=one; echo first"})
	send("q2", map[string]any{"type": "bash", "command": "echo \"$PWD $QV\""})
	running := filepath.Join(t.TempDir(), "running")
	send("q3", map[string]any{"type": "bash", "command": ": > '" + running + "'; sleep 60"})
	send("q4", map[string]any{"type": "bash", "command": "echo never"})
	next := func() map[string]any {
		v, _ := testwait.Recv(t, "a response", got)
		return v
	}
	output := func(v map[string]any) string {
		d, _ := v["data"].(map[string]any)
		return fmt.Sprint(d["output"], " cancelled=", d["cancelled"])
	}
	if v := next(); v["id"] != "q1" || output(v) != "first\n cancelled=false" {
		t.Fatalf("first response %v", v)
	}
	if v := next(); v["id"] != "q2" || output(v) != "/tmp one\n cancelled=false" {
		t.Fatalf("second response %v", v)
	}
	// q3 is running (q4, read before it started, waits).
	testwait.Until(t, "q3 to run", func() bool {
		_, err := os.Stat(running)
		return err == nil
	})
	send("q5", map[string]any{"type": "abort_bash"})
	seen := map[string]string{}
	for range 3 {
		v := next()
		seen[fmt.Sprint(v["id"])] = output(v)
	}
	if seen["q3"] != " cancelled=true" || seen["q4"] != " cancelled=true" || seen["q5"] != "<nil> cancelled=<nil>" {
		t.Fatalf("after abort_bash: %v", seen)
	}
	if resp := rr.Call("bash", map[string]any{"command": "echo after"}); !strings.Contains(string(resp.Data), `"output":"after\n"`) {
		t.Fatalf("after the abort: %s", resp.Data)
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatal(code)
	}
}

// `gopi tool bash` ends the session's shell when the call returns, and
// with it what the command left running in the background.
func TestToolBashEndsBackgroundProcesses(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	t.Chdir(t.TempDir())
	var stdout, stderr strings.Builder
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: append(isolatedEnviron(t), "SHELL=/bin/bash", shelltest.Mark(t))}
	code := run(context.Background(), env, []string{"tool", "bash", `{"command":"sleep 301 & echo started"}`})
	if code != exitMatch || stdout.String() != "started\n\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	// shelltest.Mark checks that neither the shell nor the sleep is left.
}
