package compaction

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// fakeModel answers summary requests by purpose and records them.
type fakeModel struct {
	mu      sync.Mutex
	reqs    []SummaryRequest
	answers map[string]string
	fail    map[string]error
}

func (f *fakeModel) summarize(ctx context.Context, req SummaryRequest) (string, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	err, text := f.fail[req.Purpose], f.answers[req.Purpose]
	f.mu.Unlock()
	if err != nil {
		return "", err
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return text, nil
}

func (f *fakeModel) request(purpose string) *SummaryRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.reqs {
		if f.reqs[i].Purpose == purpose {
			return &f.reqs[i]
		}
	}
	return nil
}

func newFake() *fakeModel {
	return &fakeModel{answers: map[string]string{PurposeHistory: "HISTORY", PurposeTurnPrefix: "PREFIX", PurposeShort: " I did it. "}, fail: map[string]error{}}
}

// twoTurns is a session whose cut (keep 150) is at u2: a1 read a file, a2
// edited one.
func twoTurns(t *testing.T) *builder {
	b := newBuilder(t)
	b.user("u1", "Please fix util.go")
	rc := b.call("read", map[string]any{"path": "util.go"})
	b.assistant("a1", "Reading.", rc)
	b.result("r1", rc, words(100))
	ec := b.call("edit", map[string]any{"path": "util.go"})
	b.assistant("a2", "", ec)
	b.result("r2", ec, "ok")
	b.usage("a3", "Fixed.", ai.Usage{Input: 50, Output: 2})
	b.user("u2", words(200))
	b.usage("a4", "Sure.", ai.Usage{Input: 50, Output: 2})
	return b
}

func TestGenerate(t *testing.T) {
	b := twoTurns(t)
	p, err := Prepare(b.path(), Settings{KeepRecentTokens: 150, ReserveTokens: 10000}, exact())
	if err != nil {
		t.Fatal(err)
	}
	f := newFake()
	r, err := Generate(context.Background(), p, f.summarize, Options{CustomInstructions: "the util.go fix", ExtraContext: []string{"memory: x"}, PreserveData: map[string]any{"k": 1.0}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary != "HISTORY\n\n<modified-files>\nutil.go\n</modified-files>" || r.ShortSummary != "I did it." || r.FirstKeptEntryID != b.ids["u2"] || r.TokensBefore != 52 {
		t.Errorf("result %+v", r)
	}
	h := f.request(PurposeHistory)
	if h == nil || h.SystemPrompt != SystemPrompt || h.MaxTokens != 8000 {
		t.Fatalf("history request %+v", h)
	}
	for _, want := range []string{"<conversation>\nUser: Please fix util.go\n\nAssistant: Reading.\n\nAssistant called: read(path=\"util.go\")", "</conversation>\n\n<additional-context>\n- memory: x\n</additional-context>\n\n" + historyInstructions, focusLabel + "the util.go fix"} {
		if !strings.Contains(h.Prompt, want) {
			t.Errorf("history prompt lacks %q:\n%s", want, h.Prompt)
		}
	}
	if strings.Contains(h.Prompt, "<previous-summary>") || strings.Contains(h.Prompt, words(200)) {
		t.Error("the history prompt has a previous summary or the kept messages")
	}
	s := f.request(PurposeShort)
	if s == nil || s.MaxTokens != 512 || !strings.Contains(s.Prompt, "<previous-summary>\nHISTORY\n</previous-summary>") || !strings.Contains(s.Prompt, words(200)) {
		t.Errorf("short request %+v", s)
	}
	if f.request(PurposeTurnPrefix) != nil {
		t.Error("a turn prefix summary for a clean cut")
	}
	got, _ := json.Marshal(r)
	if string(got) != `{"summary":"HISTORY\n\n\u003cmodified-files\u003e\nutil.go\n\u003c/modified-files\u003e","shortSummary":"I did it.","firstKeptEntryId":"`+b.ids["u2"]+`","tokensBefore":52,"details":{"readFiles":[],"modifiedFiles":["util.go"]},"preserveData":{"k":1}}` {
		t.Errorf("json %s", got)
	}
}

func TestGenerateSplitTurnAndUpdate(t *testing.T) {
	b := twoTurns(t)
	b.compaction("c1", "OLD SUMMARY", "u2", "")
	b.user("u2b", "And the tests?")
	b.assistant("a4b", "They pass.")
	b.user("u3", words(50))
	c := b.call("bash", map[string]any{"command": "make"})
	b.assistant("a5", "Building.", c)
	b.result("r5", c, words(300))
	b.assistant("a6", words(20))
	// keep ≈ a6 + r5: the cut falls on a6, splitting u3's turn.
	p, err := Prepare(b.path(), Settings{KeepRecentTokens: exact().Count(b.path()[b.index("a6")].Message) + 1}, exact())
	if err != nil {
		t.Fatal(err)
	}
	if !p.SplitTurn || p.FirstKeptEntryID != b.ids["a6"] || len(p.TurnPrefixMessages) != 3 {
		t.Fatalf("prepared %+v", p)
	}
	f := newFake()
	r, err := Generate(context.Background(), p, f.summarize, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Summary, "HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX") {
		t.Errorf("summary %q", r.Summary)
	}
	h, pre := f.request(PurposeHistory), f.request(PurposeTurnPrefix)
	if h == nil || !strings.Contains(h.Prompt, "<previous-summary>\nOLD SUMMARY\n</previous-summary>") || !strings.Contains(h.Prompt, updateInstructions) {
		t.Errorf("history request: %+v", h)
	}
	if pre == nil || !strings.Contains(pre.Prompt, "Assistant called: bash(command=\"make\")") || !strings.HasSuffix(pre.Prompt, turnPrefixInstructions) {
		t.Errorf("prefix request: %+v", pre)
	}

	// Split right after a compaction that kept nothing (an extension's),
	// with nothing new before the split turn: the previous summary stands
	// for the history.
	b2 := twoTurns(t)
	b2.compaction("c1", "OLD SUMMARY", "no such entry", "")
	b2.user("u3", words(50))
	c2 := b2.call("bash", map[string]any{"command": "make"})
	b2.assistant("a5", "Building.", c2)
	b2.result("r5", c2, words(300))
	b2.assistant("a6", words(20))
	p, err = Prepare(b2.path(), Settings{KeepRecentTokens: exact().Count(b2.path()[b2.index("a6")].Message) + 1}, exact())
	if err != nil || !p.SplitTurn || len(p.MessagesToSummarize) != 0 {
		t.Fatalf("%v %+v", err, p)
	}
	f = newFake()
	r, err = Generate(context.Background(), p, f.summarize, Options{})
	if err != nil || !strings.HasPrefix(r.Summary, "OLD SUMMARY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX") || f.request(PurposeHistory) != nil {
		t.Errorf("%v %q", err, r.Summary)
	}
}

func TestGenerateFailures(t *testing.T) {
	b := twoTurns(t)
	p, err := Prepare(b.path(), Settings{KeepRecentTokens: 150}, exact())
	if err != nil {
		t.Fatal(err)
	}
	for purpose, want := range map[string]string{
		PurposeHistory: "Summarization failed: overloaded",
		PurposeShort:   "Short summary failed: overloaded",
	} {
		f := newFake()
		f.fail[purpose] = errors.New("overloaded")
		if r, err := Generate(context.Background(), p, f.summarize, Options{}); err == nil || err.Error() != want || r != nil {
			t.Errorf("%s failing: %v", purpose, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Generate(ctx, p, newFake().summarize, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	// In a split turn, the failing request is reported, not the sibling it
	// cancelled.
	b.user("u3", words(50))
	c := b.call("bash", map[string]any{"command": "make"})
	b.assistant("a5", "Building.", c)
	b.result("r5", c, words(300))
	b.assistant("a6", words(20))
	p, err = Prepare(b.path(), Settings{KeepRecentTokens: 30}, exact())
	if err != nil || !p.SplitTurn {
		t.Fatalf("%v %+v", err, p)
	}
	f := newFake()
	f.fail[PurposeTurnPrefix] = errors.New("bad request")
	if _, err := Generate(context.Background(), p, f.summarize, Options{}); err == nil || err.Error() != "Turn prefix summarization failed: bad request" {
		t.Errorf("prefix failing: %v", err)
	}
}

func TestResultJSONRoundTrip(t *testing.T) {
	var r Result
	if err := json.Unmarshal([]byte(`{"summary":"S","firstKeptEntryId":"abcd1234","tokensBefore":9,"details":{"x":1}}`), &r); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	if string(out) != `{"summary":"S","firstKeptEntryId":"abcd1234","tokensBefore":9,"details":{"x":1},"preserveData":null}` {
		t.Errorf("%s", out)
	}
}

// A summary answered with no text (only whitespace, or only thinking) is
// a failure, for the history and for the start of a split turn alike: an
// empty summary would replace the history with nothing. The recap may be
// empty (the entry then has none).
func TestGenerateEmptySummary(t *testing.T) {
	b := twoTurns(t)
	p, err := Prepare(b.path(), Settings{KeepRecentTokens: 150}, exact())
	if err != nil || p.SplitTurn {
		t.Fatalf("%v %+v", err, p)
	}
	f := newFake()
	f.answers[PurposeHistory] = " \n\t"
	r, err := Generate(context.Background(), p, f.summarize, Options{})
	if !errors.Is(err, ErrEmptySummary) || r != nil || !strings.HasPrefix(err.Error(), "Summarization failed: the model wrote an empty summary") {
		t.Errorf("empty history: %v %+v", err, r)
	}
	if f.request(PurposeShort) != nil {
		t.Error("the recap was asked for after an empty summary")
	}
	f = newFake()
	f.answers[PurposeShort] = ""
	if r, err := Generate(context.Background(), p, f.summarize, Options{}); err != nil || r.ShortSummary != "" {
		t.Errorf("empty recap: %v %+v", err, r)
	}

	b.user("u3", words(50))
	c := b.call("bash", map[string]any{"command": "make"})
	b.assistant("a5", "Building.", c)
	b.result("r5", c, words(300))
	b.assistant("a6", words(20))
	if p, err = Prepare(b.path(), Settings{KeepRecentTokens: 30}, exact()); err != nil || !p.SplitTurn {
		t.Fatalf("%v %+v", err, p)
	}
	for purpose, want := range map[string]string{
		PurposeHistory:    "Summarization failed: the model wrote an empty summary",
		PurposeTurnPrefix: "Turn prefix summarization failed: the model wrote an empty summary",
	} {
		f := newFake()
		f.answers[purpose] = ""
		r, err := Generate(context.Background(), p, f.summarize, Options{})
		if !errors.Is(err, ErrEmptySummary) || r != nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("split turn, empty %s: %v %+v", purpose, err, r)
		}
	}
}
