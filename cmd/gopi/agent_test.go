package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// agentRig is an isolated home (internal/agentrig) in which the tests
// run the gopi command in-process.
type agentRig struct {
	*agentrig.Rig
	t testing.TB
	// maxFileArg lowers the @file limit of the runs (0: the default).
	maxFileArg int64
}

func newAgentRig(t testing.TB, turns ...mockllm.Turn) *agentRig {
	t.Helper()
	return &agentRig{Rig: agentrig.New(t, turns...), t: t}
}

func (r *agentRig) run(stdin string, args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	r.t.Chdir(r.Project)
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin), environ: r.Environ, maxFileArg: r.maxFileArg}
	code = run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

// --continue and --resume continue the conversation: the next request
// carries the history.
func TestContinueAndResume(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("The answer is 42.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("I said 42.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Still 42.")}},
	)
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "what is the answer?"); code != 0 {
		t.Fatalf("first: %d %s", code, stderr)
	}
	out, stderr, code := r.run("", "-p", "-c", "what did you say?")
	if code != 0 || out != "I said 42.\n" {
		t.Fatalf("continue: %d %q %s", code, out, stderr)
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(msgs, "what is the answer?") || !strings.Contains(msgs, "The answer is 42.") {
		t.Fatalf("continued request lacks the history: %s", msgs)
	}
	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("continue made a new file: %v", files)
	}
	store, err := session.Open(files[0], session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := store.SessionID()
	store.Close()
	out, stderr, code = r.run("", "-p", "--resume", id[:8], "and now?")
	if code != 0 || out != "Still 42.\n" {
		t.Fatalf("resume: %d %q %s", code, out, stderr)
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(2)); !strings.Contains(msgs, "what did you say?") {
		t.Fatalf("resumed request lacks the history: %s", msgs)
	}
	if _, stderr, code := r.run("", "-p", "--resume", "zzzz", "x"); code != 2 || !strings.Contains(stderr, "zzzz") {
		t.Fatalf("unknown id: %d %s", code, stderr)
	}
}

// A session written by omp 14.9.9 opens and continues: the next request
// carries omp's history, and the file stays loadable.
func TestResumeOmpSession(t *testing.T) {
	data, err := os.ReadFile("../../core/session/testdata/omp/tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Continuing omp's session.")}})
	path := filepath.Join(r.Home, "omp-session.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--resume", path, "what did you change?")
	if code != 0 || out != "Continuing omp's session.\n" {
		t.Fatalf("exit %d %q\n%s", code, out, stderr)
	}
	msgs := r.RequestMessages(0)
	if len(msgs) < 5 || !strings.Contains(agentrig.MustMarshal(t, msgs), "greet.go") {
		t.Fatalf("request lacks omp's history (%d messages)", len(msgs))
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(after, data) {
		t.Fatal("omp's lines were not kept byte for byte")
	}
}

// Provider failures: retried, then reported with exit 1.
func TestProviderErrorExitsOne(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Status: 400, ErrorMessage: "prompt is too weird"})
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi")
	if code != 1 || out != "" || !strings.Contains(stderr, "prompt is too weird") {
		t.Fatalf("exit %d stdout %q stderr %s", code, out, stderr)
	}
}

func TestAgentInputErrors(t *testing.T) {
	r := newAgentRig(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "--model", "nonexistent-model-xyz", "hi"}, "nonexistent-model-xyz"},
		{[]string{"-p", "--thinking", "loud", "hi"}, "thinking"},
		{[]string{"-p", "--mode", "rpc", "hi"}, "takes no messages"},
		{[]string{"-p", "-c", "--no-session", "hi"}, "--no-session"},
		{[]string{"-p", "@missing.txt"}, "missing.txt"},
		{[]string{"-p"}, "nothing to send"},
		{[]string{"--bogus"}, "unknown flag"},
	} {
		_, stderr, code := r.run("", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, stderr, c.want)
		}
	}
	if len(r.Srv.Requests()) != 0 {
		t.Error("a bad command line reached the provider")
	}
}

func TestNoKeyNamesTheVariable(t *testing.T) {
	r := newAgentRig(t)
	r.Environ = []string{"HOME=" + r.Home, "PATH=" + os.Getenv("PATH")}
	_, stderr, code := r.run("", "-p", "--model", "anthropic/claude-sonnet-4-5", "hi")
	if code != 1 || !strings.Contains(stderr, "ANTHROPIC_API_KEY") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// Piped input comes before the message; @files are inlined; a message
// equal to a command name is reachable with --.
func TestPromptAssembly(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}},
	)
	r.Write("spec.md", "# Spec\nbe nice\n")
	if _, stderr, code := r.run("diff --git a/x b/x\n", "-p", "--model", "mock/mock-model", "@spec.md", "review this"); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	text := agentrig.MustMarshal(t, r.RequestMessages(0))
	for _, want := range []string{`diff --git a/x b/x\n\n\u003cfile name=`, `spec.md\"\u003e\n# Spec\nbe nice\n\n\u003c/file\u003e\nreview this`} {
		if !strings.Contains(text, want) {
			t.Errorf("request lacks %s:\n%s", want, text)
		}
	}
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--", "grep"); code != 0 {
		t.Fatalf("-- grep: exit %d %s", code, stderr)
	}
	if text := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(text, `"text":"grep"`) {
		t.Errorf("-- grep was not a prompt: %s", text)
	}
}

// Ctrl-C aborts the run: what streamed so far is printed and kept in the
// session as an aborted message, and the exit status is 130.
func TestInterruptKeepsPartial(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("partial answer that never ends")}, ChunkSize: 8, StallAfterDeltas: 2})
	r.t.Chdir(r.Project)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	// Both deltas handled: the provider asks for more after them.
	past := newReadPast("answer t")
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ, httpClient: past.Client()}
	done := make(chan int)
	go func() { done <- run(ctx, env, []string{"-p", "--model", "mock/mock-model", "go"}) }()
	testwait.Recv(t, "both deltas to be handled", past.Seen)
	cancel()
	code, _ := testwait.Recv(t, "the interrupt to end the run", done)
	if code != 130 || out.String() != "partial answer t\n" || !strings.Contains(errb.String(), "interrupted") {
		t.Fatalf("exit %d stdout %q stderr %s", code, out.String(), errb.String())
	}
	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), `"stopReason":"aborted"`) || !strings.Contains(string(data), "partial answer t") {
		t.Fatalf("session lacks the aborted partial:\n%s", data)
	}
}

// A server that never answers: the watchdog fails the request (here after
// 200 ms, retries off) instead of hanging.
func TestServerThatNeverAnswers(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never")}, StallAfter: 1})
	r.Environ = append(r.Environ, "PI_STREAM_FIRST_EVENT_TIMEOUT_MS=200", "PI_STREAM_IDLE_TIMEOUT_MS=200")
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("retry:\n  enabled: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi")
	if code != 1 || !strings.Contains(stderr, "timed out") || time.Since(start) > 10*time.Second {
		t.Fatalf("exit %d after %s: %s", code, time.Since(start), stderr)
	}
}

// A damaged session: a malformed line is reported and kept; a file of a
// newer format version is refused and left alone.
func TestDamagedSessions(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("fine")}})
	good, err := os.ReadFile("../../core/session/testdata/omp/text.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(r.Home, "broken.jsonl")
	lines := strings.SplitAfter(string(good), "\n")
	damaged := lines[0] + "{this is not json\n" + strings.Join(lines[1:], "")
	if err := os.WriteFile(broken, []byte(damaged), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--resume", broken, "go on")
	if code != 0 || !strings.Contains(stderr, "line 2 skipped") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after, _ := os.ReadFile(broken)
	if !strings.Contains(string(after), "{this is not json\n") {
		t.Fatal("the malformed line was dropped")
	}

	newer := filepath.Join(r.Home, "newer.jsonl")
	content := strings.Replace(lines[0], `"version":3`, `"version":9`, 1) + strings.Join(lines[1:], "")
	if err := os.WriteFile(newer, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = r.run("", "-p", "--model", "mock/mock-model", "--resume", newer, "go on")
	if code != 2 || !strings.Contains(stderr, "newer") {
		t.Fatalf("newer version: exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(newer); string(after) != content {
		t.Fatal("the newer file was rewritten")
	}
}

func TestSystemPromptPathWarning(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	_, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--system-prompt", "./prompts/missing.md", "hi")
	if code != 0 || !strings.Contains(stderr, "names no file") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
