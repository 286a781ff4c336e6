package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// anthropicMessages returns the messages of an Anthropic Messages request
// body as "role:text" (text cut to 40 characters; a tool result as
// "user:[result of ID]", a tool call as "assistant:[call NAME]").
func anthropicMessages(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range req.Messages {
		var blocks []struct {
			Type      string `json:"type"`
			Text      string `json:"text"`
			Name      string `json:"name"`
			ToolUseID string `json:"tool_use_id"`
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			blocks = append(blocks, struct {
				Type      string `json:"type"`
				Text      string `json:"text"`
				Name      string `json:"name"`
				ToolUseID string `json:"tool_use_id"`
			}{Type: "text", Text: s})
		} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			var text string
			switch b.Type {
			case "text":
				text = strings.TrimSpace(b.Text)
				if len(text) > 40 {
					text = text[:40]
				}
			case "tool_use":
				text = "[call " + b.Name + "]"
			case "tool_result":
				text = "[result of " + b.ToolUseID + "]"
			default:
				continue
			}
			out = append(out, m.Role+":"+text)
		}
	}
	return out
}

// A long scripted session against the mock LLM, over HTTP with the
// Anthropic wire format: it reads files, crosses the compaction threshold,
// compacts (summary and recap from the model), and the model is sent back
// to work with a request that starts with the summary followed by the
// kept entries. Then the mock refuses a request as too long: the session
// compacts again, updating the summary, and retries the turn.
func TestCompactionEndToEnd(t *testing.T) {
	t.Parallel()
	srv := mockllm.New(t)
	f := newFixture(t, "MOCK_KEY=test", "PI_NO_TITLE=1")
	agentDir := filepath.Join(f.home, ".gopi", "agent")
	os.MkdirAll(agentDir, 0o755)
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        contextWindow: 200000\n", srv.URL())
	os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(yml), 0o644)
	// Three turns of ~2,200 tokens each (a long prompt, a read of a
	// 20-line file, an answer); compaction above 6,000, keeping ~1,500.
	f.settings("compaction:\n  thresholdTokens: 6000\n  keepRecentTokens: 1500\n")
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		os.WriteFile(filepath.Join(f.project, name), []byte(strings.Repeat("line of "+name+" content\n", 20)), 0o644)
	}
	brief := strings.Repeat(" word", 2000)

	use := func(in int) *mockllm.Usage { return &mockllm.Usage{Input: in, Output: 20} }
	readTurn := func(path string, in int) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Reading " + path + "."), mockllm.ToolCall("read", `{"path":"`+path+`"}`)}, Usage: use(in)}
	}
	answer := func(text string, in int) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(text)}, Usage: use(in)}
	}
	srv.Script(
		readTurn("a.txt", 2100), answer("a.txt repeats one line.", 2300),
		readTurn("b.txt", 4300), answer("b.txt repeats one line too.", 4500),
		readTurn("c.txt", 6300), answer("c.txt is the same kind of file.", 6500), // over 6000
		mockllm.Turn{Match: "Write working notes", Blocks: []mockllm.Block{mockllm.Text("## Objective\nCompare a.txt and b.txt.")}},
		mockllm.Turn{Match: "two or three sentences", Blocks: []mockllm.Block{mockllm.Text("I compared the files.")}},
		answer("Nothing is left to do.", 2500), // the auto-continue run
		mockllm.Overflow(),
		mockllm.Turn{Match: "previous-summary", Blocks: []mockllm.Block{mockllm.Text("## Objective\nCompare all three files.")}},
		mockllm.Turn{Match: "two or three sentences", Blocks: []mockllm.Block{mockllm.Text("I compared all files.")}},
		answer("All three are alike.", 3000), // the retried turn
	)
	cfg := f.config()
	reg := f.registry(cfg)
	s, err := New(context.Background(), Options{Config: cfg, Models: reg, Model: f.model(reg, "mock/mock-model"), Cwd: f.project})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"Look at a.txt", "Now b.txt", "And c.txt"} {
		if err := s.Prompt(ctx, p+brief, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 9 {
		for i, q := range reqs {
			t.Logf("%d: %q", i, anthropicMessages(t, q.Body))
		}
		t.Fatalf("%d requests after the threshold compaction", len(reqs))
	}
	// Requests 6 and 7 were the summaries; request 8 continued the work.
	cont := anthropicMessages(t, reqs[8].Body)
	want := []string{
		"user:Earlier parts of this conversation were ",
		"user:And c.txt word word word word word word ",
		"assistant:Reading c.txt.", "assistant:[call read]",
		"user:[result of toolu_mock_5_1]",
		"assistant:c.txt is the same kind of file.",
		"user:The conversation was just compacted: the",
	}
	if !slices.Equal(cont, want) {
		t.Errorf("the request after compaction:\n got %q\nwant %q", cont, want)
	}
	if !strings.Contains(string(reqs[8].Body), "Compare a.txt and b.txt.") {
		t.Error("the summary is not in the request")
	}
	// The history summary covers the first two turns; the recap sees the
	// kept turn after the new summary.
	hist, recap := string(reqs[6].Body), string(reqs[7].Body)
	if !strings.Contains(hist, "User: Look at a.txt") || !strings.Contains(hist, "User: Now b.txt") || strings.Contains(hist, "And c.txt") {
		t.Errorf("history summary request: %.300s", hist)
	}
	if !strings.Contains(recap, "User: And c.txt") || !strings.Contains(recap, "previous-summary") || strings.Contains(recap, "Look at a.txt") {
		t.Errorf("recap request: %.300s", recap)
	}

	if err := s.Prompt(ctx, "Compare all three", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs = srv.Requests()
	if len(reqs) != 13 {
		for i, q := range reqs[9:] {
			t.Logf("%d: %q", i+9, anthropicMessages(t, q.Body))
		}
		t.Fatalf("%d requests after the overflow", len(reqs))
	}
	retry := anthropicMessages(t, reqs[12].Body)
	if !strings.HasPrefix(retry[0], "user:Earlier parts of this conversation") || retry[len(retry)-1] != "user:Compare all three" ||
		!strings.Contains(string(reqs[12].Body), "Compare all three files.") {
		t.Errorf("the retried request: %q", retry)
	}
	if s.LastAssistantText() != "All three are alike." {
		t.Errorf("last answer %q", s.LastAssistantText())
	}
	got := evs.compactions(t)
	if len(got) != 4 || !strings.Contains(got[0], `"reason":"threshold"`) || !strings.Contains(got[1], `"willRetry":false`) ||
		!strings.Contains(got[2], `"reason":"overflow"`) || !strings.Contains(got[3], `"willRetry":true`) || !strings.Contains(got[3], `"summary":"## Objective\nCompare all three files.\n\n\u003cread-files\u003e\na.txt\nb.txt\nc.txt\n\u003c/read-files\u003e"`) {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}

	// Resumed from the file: the second summary, then its kept entries.
	path := s.SessionFile()
	s.Close()
	m, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	comps := compactionEntries(t, m)
	c := m.BuildContext()
	if len(comps) != 2 || !strings.HasPrefix(roles(c.Messages)[0], "user:Earlier parts") || roles(c.Messages)[len(c.Messages)-1] != "assistant:All three are alike." {
		t.Errorf("resumed: %d compactions, context %q", len(comps), roles(c.Messages))
	}
}

// mockSession opens a session on mock/mock-model (a 200,000-token window)
// served by a mock LLM over the Anthropic wire format, with settings as
// config.yml and tools after the built-ins.
func mockSession(t *testing.T, settings string, tools []tool.Tool, turns ...mockllm.Turn) (*Session, *mockllm.Server) {
	t.Helper()
	srv := mockllm.New(t)
	f := newFixture(t, "MOCK_KEY=test", "PI_NO_TITLE=1")
	agentDir := filepath.Join(f.home, ".gopi", "agent")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        contextWindow: 200000\n", srv.URL())
	if err := os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	f.settings(settings)
	srv.Script(turns...)
	cfg := f.config()
	reg := f.registry(cfg)
	s, err := New(context.Background(), Options{Config: cfg, Models: reg, Model: f.model(reg, "mock/mock-model"), Cwd: f.project, ExtraTools: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, srv
}

// mockAnswer is a text reply reporting input prompt tokens.
func mockAnswer(text string, input int) mockllm.Turn {
	return mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(text)}, Usage: &mockllm.Usage{Input: input, Output: 20}}
}

// mockSummary answers the summary request whose prompt contains match.
func mockSummary(match, text string) mockllm.Turn {
	return mockllm.Turn{Match: match, Blocks: []mockllm.Block{mockllm.Text(text)}}
}

// Tool output the latest compaction summarised away is not sent to the
// model, so pruning it saves nothing: the threshold check must not count
// it. Five ~10k-token results come before a manual compaction, seven
// after; the turn then reports 110,000 tokens of context (threshold
// 60,000). Only the three oldest of the seven may be pruned (~30k), which
// leaves the context over the threshold: the session compacts. Counting
// the five summarised results as well (~80k) took it below and skipped
// the compaction.
func TestPruneIgnoresOutputBeforeTheCompaction(t *testing.T) {
	t.Parallel()
	dump := mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("dump", `{}`)}}
	var turns []mockllm.Turn
	for range 5 {
		turns = append(turns, dump)
	}
	turns = append(turns, mockAnswer("dumped five", 1000), mockAnswer("noted", 1100),
		mockSummary("Write working notes", "## Objective\nDump output."),
		mockSummary("two or three sentences", "I dumped output."))
	for range 7 {
		turns = append(turns, dump)
	}
	turns = append(turns, mockAnswer("dumped seven", 110000),
		mockSummary("Rewrite them so they also cover", "## Objective\nDump more output."),
		mockSummary("only the beginning of one turn", "## Request\nDump seven times."),
		mockSummary("two or three sentences", "I dumped more output."),
		mockAnswer("continued", 2000))
	s, srv := mockSession(t, "compaction:\n  thresholdTokens: 60000\n  keepRecentTokens: 100\n", []tool.Tool{bigTool{}}, turns...)
	evs := record(s)
	ctx := context.Background()
	for _, p := range []string{"dump five times", "a note" + longText(300)} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Compactor().Compact(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Prompt(ctx, "dump seven times", PromptOptions{}); err != nil {
		t.Fatal(err)
	}

	got := evs.compactions(t)
	if len(got) != 2 || got[0] != `{"type":"auto_compaction_start","reason":"threshold","action":"context-full"}` ||
		!strings.Contains(got[1], `"summary":"## Objective\nDump more output.`) {
		t.Errorf("threshold compaction events:\n%s", strings.Join(got, "\n"))
	}
	if s.LastAssistantText() != "continued" || srv.Remaining() != 0 {
		t.Errorf("last answer %q, %d turns left", s.LastAssistantText(), srv.Remaining())
	}
	// In the file: the five summarised results are whole, the three
	// oldest of the seven are notices.
	var state []string
	for _, e := range s.Store().Entries() {
		if r, ok := e.Message.(*ai.ToolResultMessage); ok {
			state = append(state, map[bool]string{true: "pruned", false: "whole"}[r.PrunedAt != 0])
		}
	}
	want := []string{"whole", "whole", "whole", "whole", "whole", "pruned", "pruned", "pruned", "whole", "whole", "whole", "whole"}
	if !slices.Equal(state, want) {
		t.Errorf("tool results in the file: %v\nwant %v", state, want)
	}
}

// A summary the model answers without text (it thought until the output
// limit) fails the compaction: nothing is stored, the file is byte for
// byte what it was, the model sees the same messages, and the error says
// what happened. The same holds for the summary of the start of a split
// turn.
func TestCompactEmptySummaryLeavesSessionUnchanged(t *testing.T) {
	t.Parallel()
	thinking := func(match string) mockllm.Turn {
		return mockllm.Turn{Match: match, Blocks: []mockllm.Block{mockllm.Thinking("let me think", "sig")}, Stop: mockllm.StopLength}
	}
	// Never asked for: the compaction ends at the empty summary.
	recap := mockSummary("two or three sentences", "Recap.")
	for _, tc := range []struct {
		name  string
		turns []mockllm.Turn
		want  string
	}{
		{"history", []mockllm.Turn{mockAnswer("a1", 800), mockAnswer("a2", 1600), thinking("Write working notes"), recap},
			"Summarization failed: the model wrote an empty summary, so nothing was compacted; "},
		// The second turn calls a tool: with ~100 tokens kept the cut
		// falls on its last answer, and the turn's start is summarised
		// on its own.
		{"turn prefix", []mockllm.Turn{mockAnswer("a1", 800), {Blocks: []mockllm.Block{mockllm.ToolCall("dump", `{}`)}}, mockAnswer("a2", 12000),
			mockSummary("Write working notes", "## Objective\nTalk."), thinking("only the beginning of one turn"), recap},
			"Turn prefix summarization failed: the model wrote an empty summary, so nothing was compacted; "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := mockSession(t, "compaction:\n  keepRecentTokens: 100\n", []tool.Tool{bigTool{}}, tc.turns...)
			ctx := context.Background()
			for _, p := range []string{"q1" + longText(300), "q2" + longText(300)} {
				if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			before, err := os.ReadFile(s.SessionFile())
			if err != nil {
				t.Fatal(err)
			}
			msgs := roles(s.Messages())
			res, err := s.Compactor().Compact(ctx, "")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, compaction.ErrEmptySummary) || res != nil {
				t.Fatalf("compact: %v, %+v", err, res)
			}
			after, _ := os.ReadFile(s.SessionFile())
			if string(after) != string(before) || len(compactionEntries(t, s.Store())) != 0 || !slices.Equal(roles(s.Messages()), msgs) {
				t.Errorf("the session changed; context %q", roles(s.Messages()))
			}
			// The recap is never asked for. In the split case the two
			// summaries run side by side and the failed prefix cancels the
			// history request, which may or may not have reached the
			// server by then.
			left, wantLeft := srv.Remaining(), []int{1}
			if tc.name == "turn prefix" {
				wantLeft = []int{1, 2}
			}
			if !slices.Contains(wantLeft, left) || s.Compactor().IsCompacting() {
				t.Errorf("%d turns left (want %v: the recap's), compacting %v", left, wantLeft, s.Compactor().IsCompacting())
			}
		})
	}
}
