package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

func TestTextTurnEventSequence(t *testing.T) {
	t.Parallel()
	s := newScript(t, say("hello"))
	a, rec := newAgent(t, s)
	if err := a.Prompt(context.Background(), user("hi")); err != nil {
		t.Fatal(err)
	}
	got := rec.types()
	want := []string{"agent_start", "turn_start", "message_start", "message_end", "message_start"}
	if !slices.Equal(got[:5], want) {
		t.Fatalf("start of sequence %v", got)
	}
	tail := got[len(got)-3:]
	if !slices.Equal(tail, []string{"message_end", "turn_end", "agent_end"}) {
		t.Fatalf("end of sequence %v", got)
	}
	for _, typ := range got[5 : len(got)-3] {
		if typ != "message_update" {
			t.Fatalf("unexpected %s among updates: %v", typ, got)
		}
	}
	msgs := a.Messages()
	if len(msgs) != 2 || msgs[1].(*ai.AssistantMessage).Text() != "hello" {
		t.Fatalf("conversation %s", mustJSON(t, msgs))
	}
	end := rec.events()[len(got)-1].(AgentEnd)
	if len(end.Messages) != 2 {
		t.Errorf("agent_end carries %d messages", len(end.Messages))
	}
}

// INVENTORY §4 check 1: a prompt during a run fails; a follow-up runs
// after the run would have ended.
func TestPromptWhileRunningFailsAndFollowUpRunsAfter(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	release := make(chan struct{})
	s := newScript(t, func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		close(started)
		<-release
		say("first")(ctx, req, em)
	}, say("second"))
	a, _ := newAgent(t, s)
	errc := make(chan error)
	go func() { errc <- a.Prompt(context.Background(), user("one")) }()
	<-started
	if err := a.Prompt(context.Background(), user("two")); !errors.Is(err, ErrBusy) {
		t.Fatalf("prompt while running: %v", err)
	}
	a.FollowUp(user("later"))
	close(release)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if got := userTexts(a.Messages()); !slices.Equal(got, []string{"one", "later"}) {
		t.Fatalf("user messages %v", got)
	}
	reqs := s.requests()
	if len(reqs) != 2 || len(reqs[1].Messages) != 3 {
		t.Fatalf("follow-up request carries %d messages", len(reqs[1].Messages))
	}
}

// INVENTORY §4 check 2: one-at-a-time delivers two steers on two turns;
// all delivers them together.
func TestSteeringModes(t *testing.T) {
	t.Parallel()
	for _, mode := range []QueueMode{OneAtATime, AllAtOnce} {
		t.Run(string(mode), func(t *testing.T) {
			s := newScript(t, say("a"), say("b"), say("c"))
			a, _ := newAgent(t, s)
			a.SetModes(Modes{Steering: mode})
			a.Steer(user("s1"))
			a.Steer(user("s2"))
			if err := a.Prompt(context.Background(), user("p")); err != nil {
				t.Fatal(err)
			}
			// The prompt's turn takes the first delivery too: one-at-a-time
			// needs a second turn for s2, all delivers both at once.
			reqs := s.requests()
			want := 2
			if mode == AllAtOnce {
				want = 1
			}
			if len(reqs) != want {
				t.Fatalf("%d model calls, want %d", len(reqs), want)
			}
			if got := userTexts(a.Messages()); !slices.Equal(got, []string{"p", "s1", "s2"}) {
				t.Fatalf("user messages %v", got)
			}
		})
	}
}

// INVENTORY §4 check 3: in immediate mode a steer during tool 1 of 3
// skips tools 2 and 3 and keeps result 1.
func TestImmediateInterruptSkipsRemainingCalls(t *testing.T) {
	t.Parallel()
	var a *Agent
	var ran atomic.Int32
	slow := &fakeTool{name: "work", exclusive: true, run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
		if ran.Add(1) == 1 {
			a.Steer(user("stop that"))
		}
		return tool.TextResult("done", nil), nil
	}}
	s := newScript(t, calls("c", call{"work", `{}`}, call{"work", `{}`}, call{"work", `{}`}), say("ok"))
	a, rec := newAgent(t, s, slow)
	if err := a.Prompt(context.Background(), user("go")); err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 1 {
		t.Fatalf("%d calls ran, want 1", ran.Load())
	}
	var te TurnEnd
	for _, ev := range rec.events() {
		if e, ok := ev.(TurnEnd); ok {
			te = e
			break
		}
	}
	texts := resultTexts(te.ToolResults)
	if len(texts) != 3 || texts[0] != "done" || texts[1] != SkippedText || texts[2] != SkippedText {
		t.Fatalf("results %q", texts)
	}
	if got := userTexts(a.Messages()); !slices.Equal(got, []string{"go", "stop that"}) {
		t.Fatalf("user messages %v", got)
	}
	// Wait mode: all three run, the steer comes after the turn.
	ran.Store(0)
	s2 := newScript(t, calls("c", call{"work", `{}`}, call{"work", `{}`}, call{"work", `{}`}), say("ok"))
	a, _ = newAgent(t, s2, slow)
	a.SetModes(Modes{Interrupt: InterruptWait})
	if err := a.Prompt(context.Background(), user("go")); err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 3 {
		t.Fatalf("wait mode ran %d calls", ran.Load())
	}
}

// INVENTORY §4 check 4: a tool that fails gives isError and the loop goes
// on; so do a panic, bad arguments and an unknown tool.
func TestToolFailuresBecomeErrorResults(t *testing.T) {
	t.Parallel()
	failing := &fakeTool{name: "fails", run: func(context.Context, tool.Args) (*tool.Result, error) {
		return nil, errors.New("disk on fire")
	}}
	panicky := &fakeTool{name: "panics", run: func(context.Context, tool.Args) (*tool.Result, error) {
		panic("boom")
	}}
	typed := &fakeTool{name: "typed", schema: tool.Object(map[string]*tool.Schema{"n": tool.Integer("a number")}, "n")}
	s := newScript(t, calls("c",
		call{"fails", `{}`}, call{"panics", `{}`}, call{"typed", `{"n":"x"}`}, call{"nope", `{}`},
	), say("recovered"))
	a, rec := newAgent(t, s, failing, panicky, typed)
	if err := a.Prompt(context.Background(), user("go")); err != nil {
		t.Fatal(err)
	}
	var te TurnEnd
	for _, ev := range rec.events() {
		if e, ok := ev.(TurnEnd); ok {
			te = e
			break
		}
	}
	texts := resultTexts(te.ToolResults)
	wants := []string{"disk on fire", "panic", `Invalid arguments for tool "typed"`, `no tool named "nope"`}
	for i, w := range wants {
		if !te.ToolResults[i].IsError || !strings.Contains(texts[i], w) {
			t.Errorf("result %d = %q (error %v), want it to contain %q", i, texts[i], te.ToolResults[i].IsError, w)
		}
	}
	msgs := a.Messages()
	if last := msgs[len(msgs)-1].(*ai.AssistantMessage); last.Text() != "recovered" {
		t.Fatalf("loop did not go on: %s", mustJSON(t, last))
	}
}

// INVENTORY §4 check 5: exclusive calls never overlap anything; shared
// ones run together.
func TestExclusiveCallsRunAlone(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	running, maxShared := 0, 0
	var overlapped atomic.Bool
	exclusiveRunning := false
	// The shared calls come in two pairs (c0 c1, c4 c5); each waits until
	// the other of its pair runs too (a minute at most: calls run one at a
	// time would otherwise never finish), then stays a while.
	var looks atomic.Int32
	pairs := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	shared := &fakeTool{name: "look", run: func(context.Context, tool.Args) (*tool.Result, error) {
		mu.Lock()
		if exclusiveRunning {
			overlapped.Store(true)
		}
		running++
		maxShared = max(maxShared, running)
		mu.Unlock()
		n := looks.Add(1)
		if pair := pairs[min((n-1)/2, 1)]; n%2 == 0 {
			close(pair)
		} else {
			select {
			case <-pair:
			case <-time.After(time.Minute):
			}
		}
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return tool.TextResult("seen", nil), nil
	}}
	excl := &fakeTool{name: "change", exclusive: true, run: func(context.Context, tool.Args) (*tool.Result, error) {
		mu.Lock()
		if running > 0 || exclusiveRunning {
			overlapped.Store(true)
		}
		exclusiveRunning = true
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		exclusiveRunning = false
		mu.Unlock()
		return tool.TextResult("changed", nil), nil
	}}
	s := newScript(t, calls("c",
		call{"look", `{}`}, call{"look", `{}`}, call{"change", `{}`}, call{"change", `{}`}, call{"look", `{}`}, call{"look", `{}`},
	), say("ok"))
	a, _ := newAgent(t, s, shared, excl)
	if err := a.Prompt(context.Background(), user("go")); err != nil {
		t.Fatal(err)
	}
	if overlapped.Load() {
		t.Error("an exclusive call overlapped another call")
	}
	if maxShared < 2 {
		t.Errorf("shared calls did not run concurrently (max %d at once)", maxShared)
	}
	// Results are in call order whatever the completion order.
	var ids []string
	for _, m := range a.Messages() {
		if r, ok := m.(*ai.ToolResultMessage); ok {
			ids = append(ids, r.ToolCallID)
		}
	}
	if !slices.Equal(ids, []string{"c0", "c1", "c2", "c3", "c4", "c5"}) {
		t.Errorf("result order %v", ids)
	}
}

// INVENTORY §4 check 6: aborting mid-stream gives an aborted message with
// the partial content.
func TestAbortMidStreamKeepsPartial(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	s := newScript(t, stall("partial answ", started))
	a, rec := newAgent(t, s)
	errc := make(chan error)
	go func() { errc <- a.Prompt(context.Background(), user("q")) }()
	<-started
	rec.waitTextDelta(t)
	a.Abort()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	msgs := a.Messages()
	last := msgs[len(msgs)-1].(*ai.AssistantMessage)
	if last.StopReason != ai.StopReasonAborted || last.Text() != "partial answ" {
		t.Fatalf("last message %s", mustJSON(t, last))
	}
	types := rec.types()
	if types[len(types)-1] != "agent_end" {
		t.Fatalf("events %v", types)
	}
}

// A provider that ignores cancellation is ended by the loop after the
// grace period.
func TestAbortWithStuckProvider(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	block := make(chan struct{})
	defer close(block)
	s := newScript(t, func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, "stuck")
		close(started)
		<-block
	})
	a, rec := newAgent(t, s)
	a.opts.AbortGrace = 50 * time.Millisecond
	errc := make(chan error)
	go func() { errc <- a.Prompt(context.Background(), user("q")) }()
	<-started
	rec.waitTextDelta(t)
	a.Abort()
	testwait.Recv(t, "the abort to end the run", errc)
	last := a.Messages()[1].(*ai.AssistantMessage)
	if last.StopReason != ai.StopReasonAborted || last.Text() != "stuck" {
		t.Fatalf("last message %s", mustJSON(t, last))
	}
}

func TestAbortDuringToolsCancelsThemAndEnds(t *testing.T) {
	t.Parallel()
	inTool := make(chan struct{})
	waiting := &fakeTool{name: "wait", run: func(ctx context.Context, _ tool.Args) (*tool.Result, error) {
		close(inTool)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	s := newScript(t, calls("c", call{"wait", `{}`}))
	a, _ := newAgent(t, s, waiting)
	errc := make(chan error)
	go func() { errc <- a.Prompt(context.Background(), user("q")) }()
	<-inTool
	a.Abort()
	select {
	case <-errc:
	case <-time.After(5 * time.Second):
		t.Fatal("abort did not end the run")
	}
	msgs := a.Messages()
	res := msgs[2].(*ai.ToolResultMessage)
	if !res.IsError || !strings.Contains(res.Content[0].(*ai.TextContent).Text, "aborted") {
		t.Fatalf("tool result %s", mustJSON(t, res))
	}
	if last := msgs[len(msgs)-1].(*ai.AssistantMessage); last.StopReason != ai.StopReasonAborted {
		t.Fatalf("run did not end aborted: %s", mustJSON(t, last))
	}
}

func TestRetryTransientErrors(t *testing.T) {
	t.Parallel()
	s := newScript(t, fail("HTTP 529: overloaded"), fail("HTTP 503 Service Unavailable"), say("finally"))
	a, rec := newAgent(t, s)
	a.SetRetry(RetryOptions{Enabled: true, Policy: ai.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond}})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	var starts []AutoRetryStart
	var end *AutoRetryEnd
	for _, ev := range rec.events() {
		switch e := ev.(type) {
		case AutoRetryStart:
			starts = append(starts, e)
		case AutoRetryEnd:
			end = &e
		}
	}
	if len(starts) != 2 || end == nil || !end.Success || end.Attempt != 2 {
		t.Fatalf("retry events %+v %+v", starts, end)
	}
	msgs := a.Messages()
	if len(msgs) != 2 || msgs[1].(*ai.AssistantMessage).Text() != "finally" {
		t.Fatalf("conversation keeps failed attempts: %s", mustJSON(t, msgs))
	}
	// The failed attempts were complete messages (a session stores them).
	ends := 0
	for _, ev := range rec.events() {
		if e, ok := ev.(MessageEnd); ok {
			if am, ok := e.Message.(*ai.AssistantMessage); ok && am.StopReason == ai.StopReasonError {
				ends++
			}
		}
	}
	if ends != 2 {
		t.Errorf("%d failed attempts ended as messages, want 2", ends)
	}
}

// retry.maxRetries 0 means no retry: the first failure ends the run, and
// the end of retrying is announced as omp does (attempt 0, the error).
func TestRetryZeroMaxAttemptsDoesNotRetry(t *testing.T) {
	t.Parallel()
	s := newScript(t, fail("HTTP 503 Service Unavailable"), say("never asked"))
	a, rec := newAgent(t, s)
	a.SetRetry(RetryOptions{Enabled: true, Policy: ai.RetryPolicy{MaxAttempts: 0, BaseDelay: time.Millisecond}})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	if n := len(s.requests()); n != 1 {
		t.Fatalf("%d requests: the failure was retried", n)
	}
	var ends []AutoRetryEnd
	for _, ev := range rec.events() {
		switch e := ev.(type) {
		case AutoRetryStart:
			t.Fatalf("retry announced: %+v", e)
		case AutoRetryEnd:
			ends = append(ends, e)
		}
	}
	if len(ends) != 1 || ends[0].Success || ends[0].Attempt != 0 || ends[0].FinalError == "" {
		t.Fatalf("retry end %+v", ends)
	}
}

func TestRetryGivesUpAndNonTransientIsNotRetried(t *testing.T) {
	t.Parallel()
	s := newScript(t, fail("HTTP 500 server error"), fail("HTTP 500 server error"))
	a, rec := newAgent(t, s)
	a.SetRetry(RetryOptions{Enabled: true, Policy: ai.RetryPolicy{MaxAttempts: 1, BaseDelay: time.Millisecond}})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	last := rec.events()
	var end AutoRetryEnd
	for _, ev := range last {
		if e, ok := ev.(AutoRetryEnd); ok {
			end = e
		}
	}
	if end.Success || end.FinalError == "" {
		t.Fatalf("end %+v", end)
	}
	msgs := a.Messages()
	if m := msgs[len(msgs)-1].(*ai.AssistantMessage); m.StopReason != ai.StopReasonError {
		t.Fatalf("final message %s", mustJSON(t, m))
	}

	s = newScript(t, fail("HTTP 401 Unauthorized: invalid x-api-key"))
	a, rec = newAgent(t, s)
	a.SetRetry(RetryOptions{Enabled: true})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	for _, ev := range rec.events() {
		if _, ok := ev.(AutoRetryStart); ok {
			t.Fatal("an auth error was retried")
		}
	}
}

func TestAbortRetryStopsTheWait(t *testing.T) {
	t.Parallel()
	s := newScript(t, fail("HTTP 529 overloaded"))
	a, rec := newAgent(t, s)
	a.SetRetry(RetryOptions{Enabled: true, Policy: ai.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}})
	a.Subscribe(func(ev Event) {
		if _, ok := ev.(AutoRetryStart); ok {
			go a.AbortRetry()
		}
	})
	done := make(chan error)
	go func() { done <- a.Prompt(context.Background(), user("q")) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("AbortRetry did not stop the wait")
	}
	var end AutoRetryEnd
	for _, ev := range rec.events() {
		if e, ok := ev.(AutoRetryEnd); ok {
			end = e
		}
	}
	if end.FinalError != "Retry cancelled" {
		t.Fatalf("end %+v", end)
	}
	if n := len(a.Messages()); n != 2 {
		t.Fatalf("failed message not kept: %d messages", n)
	}
}

// A forced tool choice goes into the request, is offered even when the
// tool is hidden, and comes back when the model does not call the tool.
func TestForcedToolChoiceRequeuedWhenRefused(t *testing.T) {
	t.Parallel()
	res := &hiddenTool{fakeTool{name: "resolve"}}
	s := newScript(t, say("I would rather not"), calls("r", call{"resolve", `{}`}), say("done"))
	a, _ := newAgent(t, s, &fakeTool{name: "read"}, res)
	a.ForceToolChoice("resolve", "preview")
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	if got := a.pendingToolChoices(); !slices.Equal(got, []string{"resolve"}) {
		t.Fatalf("refused choice not requeued: %v", got)
	}
	reqs := s.requests()
	if reqs[0].ToolChoice.ForcedTool() != "resolve" || !offers(reqs[0], "resolve") {
		t.Fatalf("first request: choice %+v tools %v", reqs[0].ToolChoice, names(reqs[0]))
	}
	if err := a.Prompt(context.Background(), user("again")); err != nil {
		t.Fatal(err)
	}
	if got := a.pendingToolChoices(); len(got) != 0 {
		t.Fatalf("used choice still queued: %v", got)
	}
	reqs = s.requests()
	if last := reqs[len(reqs)-1]; last.ToolChoice != nil || offers(last, "resolve") {
		t.Fatalf("after the forced call: choice %+v tools %v", last.ToolChoice, names(last))
	}
}

type hiddenTool struct{ fakeTool }

func (*hiddenTool) Hidden() bool { return true }

func offers(r *ai.Request, name string) bool { return slices.Contains(names(r), name) }

func names(r *ai.Request) []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Name)
	}
	return out
}

func TestContinue(t *testing.T) {
	t.Parallel()
	s := newScript(t, say("answer"))
	a, _ := newAgent(t, s)
	if err := a.Continue(context.Background()); err == nil {
		t.Fatal("continue on an empty conversation")
	}
	if err := a.SetMessages([]ai.Message{user("pending question")}); err != nil {
		t.Fatal(err)
	}
	if err := a.Continue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := a.Continue(context.Background()); !errors.Is(err, ErrNothingToContinue) || !strings.Contains(err.Error(), "ends with the assistant's answer") {
		t.Fatalf("continue after the answer: %v", err)
	}
	s.add(say("again"))
	a.FollowUp(user("more"))
	if err := a.Continue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := userTexts(a.Messages()); !slices.Equal(got, []string{"pending question", "more"}) {
		t.Fatalf("users %v", got)
	}
}

func TestNoModel(t *testing.T) {
	t.Parallel()
	a := New(Options{Stream: newScript(t).stream})
	if err := a.Prompt(context.Background(), user("q")); !errors.Is(err, ErrNoModel) {
		t.Fatalf("err %v", err)
	}
}

// Tool calls of an aborted response are answered so the history stays
// valid for providers.
func TestFailedResponseCallsGetResults(t *testing.T) {
	t.Parallel()
	s := newScript(t, func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartToolCall("x1", "read")
		em.ToolCallDelta(i, `{"path":"a"}`)
		em.EndToolCall(i)
		em.Fail(nil, req.Model, errors.New("stream cut"))
	})
	a, rec := newAgent(t, s, &fakeTool{name: "read"})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	te := lastTurnEnd(rec)
	if len(te.ToolResults) != 1 || !te.ToolResults[0].IsError || !strings.Contains(resultTexts(te.ToolResults)[0], "stream cut") {
		t.Fatalf("turn end %s", mustJSON(t, te))
	}
}

// A tool that ignores cancellation does not keep an aborted run alive:
// after the abort grace its call is given up.
func TestAbortDoesNotWaitForStuckTools(t *testing.T) {
	t.Parallel()
	inTool := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	stuck := &fakeTool{name: "stuck", run: func(ctx context.Context, _ tool.Args) (*tool.Result, error) {
		close(inTool)
		<-release // ignores ctx
		return tool.TextResult("late", nil), nil
	}}
	s := newScript(t, calls("c", call{"stuck", `{}`}))
	a, _ := newAgent(t, s, stuck)
	a.opts.AbortGrace = 100 * time.Millisecond
	errc := make(chan error)
	go func() { errc <- a.Prompt(context.Background(), user("q")) }()
	<-inTool
	a.Abort()
	select {
	case <-errc:
	case <-time.After(5 * time.Second):
		t.Fatal("a stuck tool kept the aborted run alive")
	}
	res := a.Messages()[2].(*ai.ToolResultMessage)
	if !res.IsError || res.Content[0].(*ai.TextContent).Text != StuckToolText {
		t.Fatalf("result %s", mustJSON(t, res))
	}
}

// A call whose arguments were cut off is not run: a write tool would save
// half a file.
func TestIncompleteArgumentsAreNotRun(t *testing.T) {
	t.Parallel()
	ran := false
	w := &fakeTool{name: "write", run: func(context.Context, tool.Args) (*tool.Result, error) {
		ran = true
		return tool.TextResult("written", nil), nil
	}}
	s := newScript(t, func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartToolCall("w1", "write")
		em.ToolCallDelta(i, `{"path":"a.txt","content":"line1\nline2 and the rest of the fi`)
		em.EndToolCall(i)
		em.SetStopReason(ai.StopReasonLength)
		em.Done(req.Model)
	}, say("ok"))
	a, _ := newAgent(t, s, w)
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	res := a.Messages()[2].(*ai.ToolResultMessage)
	if ran || !res.IsError || res.Content[0].(*ai.TextContent).Text != IncompleteArgsText {
		t.Fatalf("ran %v, result %s", ran, mustJSON(t, res))
	}
}

// Models used to omp's schemas send an "_i" intent argument; it is taken
// out before validation (a strict schema would refuse it) and reported.
func TestIntentArgumentIsAccepted(t *testing.T) {
	t.Parallel()
	var got tool.Args
	strict := &fakeTool{name: "edit", schema: &tool.Schema{Type: "object", Properties: map[string]*tool.Schema{"input": tool.String("x")}, Required: []string{"input"}, AdditionalProperties: tool.Ptr(false)},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			got = args
			return tool.TextResult("ok", nil), nil
		}}
	s := newScript(t, calls("c", call{"edit", `{"_i":"fix the typo","input":"x"}`}), say("done"))
	a, rec := newAgent(t, s, strict)
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	if res := a.Messages()[2].(*ai.ToolResultMessage); res.IsError || len(got) != 1 {
		t.Fatalf("result %s, args %v", mustJSON(t, res), got)
	}
	for _, ev := range rec.events() {
		if e, ok := ev.(ToolExecutionStart); ok && (e.Intent != "fix the typo" || e.Args["_i"] != nil) {
			t.Fatalf("start event %+v", e)
		}
	}
}
