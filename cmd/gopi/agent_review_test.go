package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/launch"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// "-r" without an id lists the sessions, as "--resume" does, wherever it
// stands among the flags.
func TestShortResumeWithoutIDLists(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hello")}})
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "first message"); code != 0 {
		t.Fatalf("first run: %d %s", code, stderr)
	}
	for _, args := range [][]string{{"-r"}, {"--resume"}, {"-r", "-p"}, {"-p", "-r"}} {
		out, stderr, code := r.run("", args...)
		if code != 0 || !strings.Contains(out, "first message") {
			t.Errorf("gopi %v: exit %d, stdout %q, stderr %q; want the session list", args, code, out, stderr)
		}
	}
}

// An @file is read up to its limit whatever stat says: files under /proc
// report size 0 (and /proc/self/pagemap holds gigabytes), a log may grow
// while it is read.
func TestFileArgReadIsBounded(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	r.maxFileArg = 100
	_, stderr, code := r.run("", "-p", "--no-session", "@/proc/self/status", "what is this?")
	if code != 0 || !strings.Contains(stderr, "@/proc/self/status is larger than 100 bytes") {
		t.Fatalf("exit %d, no warning on stderr: %s", code, stderr)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(0))
	if strings.Contains(msgs, "VmRSS") || !strings.Contains(msgs, "skipped: too large") {
		t.Fatalf("a /proc file larger than the limit was inlined: %s", msgs)
	}
}

// Ctrl-C while gopi waits for piped input that never ends stops it at
// once with status 130 (the first Ctrl-C used to do nothing).
func TestInterruptWhileReadingInput(t *testing.T) {
	r := newAgentRig(t)
	t.Chdir(r.Project)
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	reading := make(chan struct{})
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: &readSignal{r: pr, reading: reading}, environ: r.Environ}
	code := make(chan int, 1)
	go func() { code <- run(ctx, env, []string{"-p", "hi"}) }()
	testwait.Recv(t, "gopi to read its input", reading)
	cancel()
	select {
	case c := <-code:
		if c != 130 || !strings.Contains(errb.String(), "interrupted") {
			t.Fatalf("exit %d, stderr %q", c, errb.String())
		}
	case <-time.After(5 * time.Second):
		pw.Close()
		<-code
		t.Fatal("gopi kept waiting for its input after Ctrl-C")
	}
	if len(r.Srv.Requests()) != 0 {
		t.Error("an interrupted command reached the provider")
	}
}

// readSignal is a reader that closes reading when it is first read.
type readSignal struct {
	r       io.Reader
	reading chan struct{}
	once    sync.Once
}

func (s *readSignal) Read(p []byte) (int, error) {
	s.once.Do(func() { close(s.reading) })
	return s.r.Read(p)
}

// A session directory that cannot be written is found before the model is
// called (nothing is paid for), with the ways out.
func TestUnwritableSessionDirRefusedUpFront(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("the paid-for answer")}})
	r.Write("blocker", "a file where the session directory should be")
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--session-dir", "blocker/sessions", "hi")
	if code != 2 || out != "" || !strings.Contains(stderr, "--no-session") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if len(r.Srv.Requests()) != 0 {
		t.Error("the model was called although the session could not be saved")
	}
}

// Two runs of one session at once: the second refuses to start.
func TestSessionInUseRefused(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("first")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("slow second answer")}, ChunkSize: 2, ChunkDelay: 30 * time.Millisecond},
	)
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "hi"); code != 0 {
		t.Fatalf("first: %d %s", code, stderr)
	}
	r.t.Chdir(r.Project)
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), env, []string{"-p", "-c", "go on"}) }()
	testwait.Until(t, "the first run to call the model", func() bool { return len(r.Srv.Requests()) >= 2 })
	_, stderr, code := r.run("", "-p", "-c", "me too")
	if code != 2 || !strings.Contains(stderr, "in use") || !strings.Contains(stderr, "--fork") {
		t.Fatalf("second run at once: exit %d, stderr %q", code, stderr)
	}
	if c := <-done; c != 0 {
		t.Fatalf("first run: exit %d %s", c, errb.String())
	}
}

// An omp session found under ~/.omp/agent/sessions keeps its images in
// ~/.omp/agent/blobs: --continue sends the image itself, not the
// "blob:sha256:…" reference (which a provider rejects as bad base64).
func TestContinueOmpSessionWithImage(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("I see it.")}})
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        input: [text, image]\n", r.Srv.URL())
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	omp := filepath.Join(r.Home, ".omp", "agent")
	fixtures := "../../core/session/testdata/omp/"
	blobs, err := os.ReadDir(fixtures + "blobs")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blobs {
		copyFile(t, fixtures+"blobs/"+b.Name(), filepath.Join(omp, "blobs", b.Name()))
	}
	copyFile(t, fixtures+"image.jsonl", filepath.Join(omp, "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(r.Project, "/"), "/", "-")+"--", "2026-01-01T00-00-00-000Z_x.jsonl"))
	out, stderr, code := r.run("", "-p", "-c", "and now?")
	if code != 0 || out != "I see it.\n" {
		t.Fatalf("exit %d %q: %s", code, out, stderr)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(0))
	if strings.Contains(msgs, "blob:sha256:") || !strings.Contains(msgs, `"media_type":"image/png"`) {
		t.Fatalf("the image was not restored from omp's blobs: %.600s", msgs)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// "--resume ID" of a session that belongs to another directory is refused
// with the way to fork it here, as omp does without a terminal; it used to
// append this directory's conversation to the other project's file.
func TestResumeOtherProjectRefused(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("in A")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("forked into B")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("by path")}},
	)
	projectA := r.Project
	if _, stderr, code := r.run("", "-p", "hello from A"); code != 0 {
		t.Fatalf("first run: %d %s", code, stderr)
	}
	files := r.SessionFiles()
	before, _ := os.ReadFile(files[0])
	store, err := session.Open(files[0], session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := store.SessionID()
	store.Close()

	r.Project = filepath.Join(filepath.Dir(projectA), "projectB")
	if err := os.MkdirAll(r.Project, 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := r.run("", "-p", "-r", id[:13], "hello from B")
	if code != 2 || !strings.Contains(stderr, "another project") || !strings.Contains(stderr, "--fork") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(files[0]); !bytes.Equal(before, after) {
		t.Fatal("project A's session file was changed")
	}
	if len(r.Srv.Requests()) != 1 {
		t.Fatal("the refused resume reached the provider")
	}
	if out, stderr, code := r.run("", "-p", "--fork", id[:13], "hello from B"); code != 0 || out != "forked into B\n" {
		t.Fatalf("fork: exit %d %q %s", code, out, stderr)
	}
	// By path it is the user's explicit choice, as in omp.
	if _, stderr, code := r.run("", "-p", "-r", files[0], "by path"); code != 0 {
		t.Fatalf("resume by path refused: %s", stderr)
	}
}

// An @file over the limit is named, not sent, and the user is told so.
func TestLargeFileArgWarns(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	r.maxFileArg = 100
	r.Write("big.txt", strings.Repeat("x", 101))
	_, stderr, code := r.run("", "-p", "--no-session", "@big.txt", "summarise")
	if code != 0 || !strings.Contains(stderr, "@big.txt is larger than 100 bytes; only its name is sent") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// Piped input over its limit is refused with advice that works: @FILE
// inlines less than the pipe limit, so it is not the way out.
func TestLargePipedInputAdvice(t *testing.T) {
	r := newAgentRig(t)
	_, stderr, code := r.run(strings.Repeat("y\n", launch.MaxPipedInput/2+1), "-p", "x")
	if code != 2 || !strings.Contains(stderr, "pipe less") || !strings.Contains(stderr, "ask the agent to read it") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// --fork with an unknown id does not talk about "resume".
func TestForkUnknownIDMessage(t *testing.T) {
	r := newAgentRig(t)
	_, stderr, code := r.run("", "-p", "--fork", "zzzz", "x")
	if code != 2 || !strings.Contains(stderr, `"zzzz": no session matches`) || strings.Contains(stderr, "resume \"") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// The session list reads only the start of each file: for a long session
// the message count is shown as a lower bound, not as the total.
func TestSessionListLongSessionCount(t *testing.T) {
	var turns []mockllm.Turn
	for range 12 {
		turns = append(turns, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(strings.Repeat("long answer ", 40))}})
	}
	r := newAgentRig(t, turns...)
	if _, stderr, code := r.run("", "-p", "first"); code != 0 {
		t.Fatal(stderr)
	}
	for range 11 {
		if _, stderr, code := r.run("", "-p", "-c", "more"); code != 0 {
			t.Fatal(stderr)
		}
	}
	out, stderr, code := r.run("", "--resume")
	if code != 0 || !strings.Contains(out, "+ msgs") {
		t.Fatalf("exit %d, list %q %s", code, out, stderr)
	}
}
