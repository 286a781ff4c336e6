package permission

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// fakeAsker answers with the next of its answers (or err), counting the
// questions and how many were out at once.
type fakeAsker struct {
	mu       sync.Mutex
	answers  []Answer
	err      error
	asked    []Request
	out, max int
	hold     chan struct{} // when set, the first question waits for it
	settled  []string
}

func (f *fakeAsker) Ask(ctx context.Context, req Request) (Answer, error) {
	f.mu.Lock()
	f.asked = append(f.asked, req)
	f.out++
	f.max = max(f.max, f.out)
	first, hold := len(f.asked) == 1, f.hold
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.out--
		f.mu.Unlock()
	}()
	if first && hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if f.err != nil {
		return "", f.err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.answers[0]
	if len(f.answers) > 1 {
		f.answers = f.answers[1:]
	}
	return a, nil
}

func (f *fakeAsker) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.asked)
}

type observingAsker struct{ *fakeAsker }

func (o observingAsker) Settled(req Request, res *tool.Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.settled = append(o.settled, req.CallID+":"+res.FirstText())
}

func bashCall(id string) Request {
	return Request{CallID: id, Tool: "bash", Args: map[string]any{"command": "make"}, Access: tool.Access{Tool: "bash", Writes: true}}
}

func newGate(t *testing.T, asker Asker, patterns ...string) *Gate {
	t.Helper()
	g, err := New(Options{Require: patterns, Setting: "test.requirePermission", Asker: asker})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGateAnswers(t *testing.T) {
	ctx := context.Background()
	f := &fakeAsker{answers: []Answer{AllowOnce, RejectOnce, AllowAlways}}
	g := newGate(t, f, "*")
	read := Request{CallID: "r", Tool: "read", Access: tool.Access{Tool: "read"}}
	if err := g.Check(ctx, read); err != nil || f.count() != 0 {
		t.Fatalf("a read: %v, %d questions", err, f.count())
	}
	if err := g.Check(ctx, bashCall("1")); err != nil {
		t.Fatalf("allowed once: %v", err)
	}
	err := g.Check(ctx, bashCall("2"))
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != "The user rejected this bash call; it was not run. Do not retry it: ask the user how to proceed." {
		t.Fatalf("rejected once: %v", err)
	}
	if err := g.Check(ctx, bashCall("3")); err != nil {
		t.Fatalf("allowed always: %v", err)
	}
	if err := g.Check(ctx, bashCall("4")); err != nil || f.count() != 3 {
		t.Fatalf("after allow always: %v, %d questions (want 3)", err, f.count())
	}
	if g.Asks(tool.Access{Tool: "bash", Writes: true}) || !g.Asks(tool.Access{Tool: "write", Writes: true}) {
		t.Error("Asks disagrees with the remembered answers")
	}
	// Another session: the answer is gone.
	g.Forget()
	f.answers = []Answer{RejectAlways}
	if err := g.Check(ctx, bashCall("5")); err == nil || !strings.Contains(err.Error(), "rejected every bash call for the rest of this session") {
		t.Fatalf("reject always: %v", err)
	}
	if err := g.Check(ctx, bashCall("6")); err == nil || !strings.Contains(err.Error(), "rejected every bash call") || f.count() != 4 {
		t.Fatalf("after reject always: %v, %d questions (want 4)", err, f.count())
	}
	// An "always" answer is the tool's: resolve applying an ast_edit
	// preview asks for ast_edit and is remembered under it.
	f.answers = []Answer{AllowAlways}
	apply := Request{CallID: "7", Tool: "resolve", Access: tool.Access{Tool: "ast_edit", Writes: true, Summary: "Apply AST edit: 2 replacements in 1 files"}}
	if err := g.Check(ctx, apply); err != nil || f.asked[len(f.asked)-1].Subject() != "ast_edit" {
		t.Fatalf("resolve apply: %v", err)
	}
	if g.Asks(tool.Access{Tool: "ast_edit", Writes: true}) {
		t.Error("allow always for ast_edit was not remembered")
	}
}

func TestGateWithoutAnswer(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"dismissed", tool.ErrDialogCancelled, "The user dismissed the permission request for this bash call; it was not run."},
		{"timed out", tool.ErrDialogTimedOut, "timed out without an answer"},
		{"withdrawn", ErrCancelled, "was cancelled before the user answered"},
		{"failed", errors.New("the pipe broke"), "could not be answered (the pipe broke); the call was not run."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAsker{err: tc.err}
			err := newGate(t, f, "bash").Check(context.Background(), bashCall("1"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want %q", err, tc.want)
			}
		})
	}
	// No one to ask: refused, naming the setting.
	err := newGate(t, nil, "bash").Check(context.Background(), bashCall("1"))
	if err == nil || !strings.Contains(err.Error(), "(setting test.requirePermission), but there is no one to ask") {
		t.Fatalf("no asker: %v", err)
	}
}

// A question waits for the answer as long as it takes, but the end of
// the call's context (a cancelled prompt) withdraws it.
func TestGateCancel(t *testing.T) {
	f := &fakeAsker{answers: []Answer{AllowOnce}, hold: make(chan struct{})}
	g := newGate(t, f, "*")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Check(ctx, bashCall("1")) }()
	testwait.Until(t, "the question", func() bool { return f.count() != 0 })
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "cancelled before the user answered") {
		t.Fatalf("%v", err)
	}
	// A call that waits its turn behind another question ends with its
	// own context too.
	f2 := &fakeAsker{answers: []Answer{AllowOnce}, hold: make(chan struct{})}
	g2 := newGate(t, f2, "*")
	go g2.Check(context.Background(), bashCall("first"))
	testwait.Until(t, "the question", func() bool { return f2.count() != 0 })
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if err := g2.Check(ctx2, bashCall("second")); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("waiting call: %v", err)
	}
	close(f2.hold)
}

// Questions go out one at a time; an "always" answer settles the ones
// waiting behind it.
func TestGateOneQuestionAtATime(t *testing.T) {
	f := &fakeAsker{answers: []Answer{AllowAlways}, hold: make(chan struct{})}
	g := newGate(t, f, "*")
	const n = 5
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- g.Check(context.Background(), bashCall(string(rune('a'+i))))
		}()
	}
	// Release the first question once a second one arrives (the gate is
	// broken) or the others have had time to queue (it is not).
	go func() {
		deadline := time.Now().Add(200 * time.Millisecond)
		for f.count() < 2 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		close(f.hold)
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if f.count() != 1 || f.max != 1 {
		t.Fatalf("%d questions, %d at once; want 1 and 1", f.count(), f.max)
	}
}

// An observing asker hears how the calls it asked about ended.
func TestGateObserver(t *testing.T) {
	f := &fakeAsker{answers: []Answer{AllowOnce, RejectOnce, AllowAlways}}
	g := newGate(t, observingAsker{f}, "*")
	ctx := context.Background()
	if err := g.Check(ctx, bashCall("1")); err != nil {
		t.Fatal(err)
	}
	g.Done(bashCall("1"), tool.TextResult("built", nil))
	g.Check(ctx, bashCall("2"))
	g.Check(ctx, bashCall("3"))
	g.Done(bashCall("3"), tool.TextResult("built again", nil))
	g.Check(ctx, bashCall("4")) // remembered: not asked, not observed
	g.Done(bashCall("4"), tool.TextResult("quietly", nil))
	want := "1:built|2:The user rejected this bash call; it was not run. Do not retry it: ask the user how to proceed.|3:built again"
	if got := strings.Join(f.settled, "|"); got != want {
		t.Fatalf("settled %q\nwant %q", got, want)
	}
}
