package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/prompthistory"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

func text(s string) mockllm.Block { return mockllm.Text(s) }

func answer(s string) mockllm.Turn { return mockllm.Turn{Blocks: []mockllm.Block{text(s)}} }

// A prompt runs: the user's message, the streamed answer (Markdown,
// thinking collapsed), a tool card with the edit's diff, the final answer.
func TestPromptStreamsToolCardsAndAnswer(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Thinking("look at the file", "sig"), text("I will **edit** greet.go.\n\nFirst paragraph done.\n\n"),
			mockllm.ToolCall("edit", `{"path":"greet.go","edits": [{"old_text":"\"hi\"","new_text":"\"hi!\""}]}`)}, ChunkSize: 3},
		answer("Done:\n\n- changed `Hello`\n\n```go\nfunc Hello() string\n```\n"),
	)
	write(t, filepath.Join(r.project, "greet.go"), "package greet\n\nfunc Hello() string { return \"hi\" }\n")
	r.typeAndSend("make it exclaim")
	r.until("the run to start", func() bool { return r.m.running })
	r.idle()
	tr := r.transcript()
	for _, want := range []string{
		"▌ make it exclaim",
		"∴ Thinking (4 words",
		"I will edit greet.go.",
		"First paragraph done.",
		"✓ [edit: greet.go]",
		"-func Hello() string { return \"hi\" }",
		"+func Hello() string { return \"hi!\" }",
		"• changed",
		"func Hello() string",
	} {
		if !strings.Contains(tr, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, tr)
		}
	}
	if strings.Contains(tr, "look at the file") {
		t.Error("thinking was shown in full while collapsed")
	}
	if !strings.Contains(r.m.footer(), "mock/mock-model") {
		t.Errorf("footer %q", r.m.footer())
	}
	if !r.m.ed.empty() {
		t.Error("the editor was not cleared after sending")
	}
}

// Enter while the agent works steers it; Alt+Enter queues a follow-up;
// both reach the model.
func TestSteerAndFollowUpWhileRunning(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo working"}`)}, Hold: hold},
		answer("first answer"),
		answer("after the follow-up"),
	)
	r.typeAndSend("start")
	r.until("the run to start", func() bool { return r.m.running })
	r.typeAndSend("please also check the tests")
	r.key("queue this too")
	r.key("alt+enter")
	r.settle()
	close(hold)
	r.idle()
	reqs := r.llm.Requests()
	if len(reqs) < 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(string(reqs[1].Body), "please also check the tests") {
		t.Error("the steering message did not reach the second request")
	}
	if !strings.Contains(string(reqs[2].Body), "queue this too") {
		t.Error("the follow-up did not reach the third request")
	}
	for _, want := range []string{"▌ please also check the tests", "▌ queue this too", "after the follow-up"} {
		if !r.printedHas(want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
}

// Esc aborts a run that stalls; the partial answer is kept and marked.
func TestEscAborts(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("a long answer that never ends")}, StallAfterDeltas: 2, ChunkSize: 2})
	r.typeAndSend("go")
	r.until("streaming", func() bool { return r.m.live != nil })
	r.key("esc")
	r.idle()
	if !r.printedHas("⏹ Aborted") {
		t.Errorf("no abort note:\n%s", r.transcript())
	}
	if m := r.s.LastAssistant(); m == nil || m.StopReason != ai.StopReasonAborted {
		t.Errorf("last message %+v", m)
	}
}

// Ctrl+C clears the editor; on an empty editor it exits when pressed
// twice; Ctrl+D exits on an empty editor only.
func TestCtrlCAndCtrlD(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.key("draft text")
	r.key("ctrl+d")
	if r.m.quitting || r.m.ed.text() != "draft text" {
		t.Fatal("Ctrl+D with text must not exit or lose it")
	}
	r.key("ctrl+c")
	if !r.m.ed.empty() || r.m.quitting {
		t.Fatal("the first Ctrl+C should clear the editor only")
	}
	r.key("ctrl+c")
	if r.m.quitting || !strings.Contains(r.view(), "Press Ctrl+C again to exit") {
		t.Fatal("one Ctrl+C on an empty editor should warn, not exit")
	}
	r.key("ctrl+c")
	if !r.m.quitting {
		t.Fatal("the second Ctrl+C did not exit")
	}
}

// Up and Down walk the history; the draft comes back.
func TestHistory(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("one"), answer("two"))
	r.typeAndSend("first message")
	r.idle()
	r.typeAndSend("second message")
	r.idle()
	r.key("draft")
	r.key("up")
	if got := r.m.ed.text(); got != "second message" {
		t.Fatalf("up: %q", got)
	}
	r.key("up")
	if got := r.m.ed.text(); got != "first message" {
		t.Fatalf("up twice: %q", got)
	}
	r.key("down")
	r.key("down")
	if got := r.m.ed.text(); got != "draft" {
		t.Fatalf("back to the draft: %q", got)
	}
}

// A large paste is shown as a marker and sent in full.
func TestLargePasteCollapsed(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("got it"))
	big := strings.Repeat("line of pasted log output\n", 40)
	r.key("look: ")
	r.update(pasteMsg(big))
	if v := r.m.ed.ta.Value(); !strings.Contains(v, "[paste #1: 41 lines") || strings.Contains(v, "pasted log") {
		t.Fatalf("editor shows %q", v)
	}
	r.key("enter")
	r.idle()
	if body := string(r.llm.Requests()[0].Body); strings.Count(body, "line of pasted log output") != 40 {
		t.Error("the pasted text was not sent in full")
	}
}

// Slash commands: help, unknown, thinking, model, session, settings,
// hotkeys, export, new.
func TestSlashCommands(t *testing.T) {
	r := newRig(t, answer("hello there"))
	r.typeAndSend("hi")
	r.idle()
	for _, c := range []struct{ cmd, want string }{
		{"/help", "/compact [instructions]"},
		{"/nope", "Unknown command /nope: /help lists the commands"},
		{"/hotkeys", "Alt+Enter"},
		{"/session", "1 user, 1 assistant"},
		{"/mcp", "No MCP servers are configured"},
		{"/thinking loud", "Unknown thinking level loud"},
	} {
		r.typeAndSend(c.cmd)
		r.settle()
		if !r.printedHas(c.want) {
			t.Errorf("%s: the transcript lacks %q", c.cmd, c.want)
		}
	}
	r.typeAndSend("/model other")
	r.settle()
	if m := r.s.Agent().Model(); m == nil || m.ID != "other-model" {
		t.Errorf("/model other chose %v", m)
	}
	r.typeAndSend("/thinking high")
	r.settle()
	if l := r.s.Agent().Thinking(); l != ai.ThinkingHigh {
		t.Errorf("thinking %s", l)
	}
	// /model without a query opens the picker; Esc closes it.
	r.typeAndSend("/model")
	if r.m.picker == nil || !strings.Contains(r.view(), "mock/mock-model") {
		t.Fatalf("no model picker:\n%s", r.view())
	}
	r.key("esc")
	if r.m.picker != nil {
		t.Fatal("Esc did not close the picker")
	}
	out := filepath.Join(r.project, "page.html")
	r.typeAndSend("/export " + out)
	r.until("the export", func() bool { return r.printedHas("Exported to: " + out) })
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "hello there") {
		t.Errorf("export: %v", err)
	}
	old := r.s.SessionFile()
	r.typeAndSend("/new")
	r.until("the new session", func() bool { return r.printedHas("── new session") })
	if r.s.SessionFile() == old || len(r.s.Messages()) != 0 {
		t.Error("/new did not start an empty session")
	}
}

// /tree: picking the user message moves before it and gives its text
// back for editing; the next prompt grows a new branch.
func TestTreeGivesTheMessageBack(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("first"), answer("second"))
	r.typeAndSend("original question")
	r.idle()
	r.typeAndSend("/tree")
	if r.m.picker == nil {
		t.Fatal("no tree picker")
	}
	if !strings.Contains(r.view(), "user: original question") {
		t.Fatalf("tree view:\n%s", r.view())
	}
	r.key("home")
	r.key("enter")
	r.until("the move", func() bool { return r.printedHas("moved in the session tree") && r.m.ed.text() != "" })
	if got := r.m.ed.text(); got != "original question" {
		t.Errorf("editor %q", got)
	}
	r.key("enter")
	r.idle()
	if n := len(r.s.Messages()); n != 2 {
		t.Errorf("%d messages on the new branch", n)
	}
	if !r.printedHas("second") {
		t.Error("no answer on the new branch")
	}
}

// "!cmd" runs in the session's shell and is recorded.
func TestBangShell(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.typeAndSend("!echo hi from the shell")
	r.until("the command", func() bool { return r.printedHas("hi from the shell") })
	if !r.printedHas("$ echo hi from the shell") {
		t.Errorf("transcript:\n%s", r.transcript())
	}
	r.settle()
	msgs := r.s.Messages()
	if len(msgs) == 0 || msgs[len(msgs)-1].MessageRole() != "bashExecution" {
		t.Error("the command was not recorded in the session")
	}
}

// A failing prompt (the provider refuses) is reported and the text is
// kept in the session, not lost.
func TestProviderErrorShown(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Status: 401, ErrorMessage: "bad key"})
	r.typeAndSend("hello?")
	r.idle()
	if !r.printedHas("✗") || !r.printedHas("bad key") {
		t.Errorf("transcript:\n%s", r.transcript())
	}
}

// A resumed conversation is printed at start.
func TestHistoryPrintedAtStart(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("remembered answer"))
	r.typeAndSend("remember me")
	r.idle()
	r.printed = nil
	m := newModel(r.m.ctx, r.s, Options{NoColor: true, Record: &r.printed})
	m.Init()
	if !r.printedHas("▌ remember me") || !r.printedHas("remembered answer") {
		t.Errorf("history:\n%s", r.transcript())
	}
	if got := m.ed.history; len(got) != 1 || got[0] != "remember me" {
		t.Errorf("history for Up: %q", got)
	}
}

// The working line shows while a run is in progress and says how to stop.
func TestWorkingLine(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("slow")}, Hold: hold})
	r.typeAndSend("go")
	r.until("running", func() bool { return r.m.running })
	r.m.started = time.Now().Add(-3 * time.Second)
	if v := r.view(); !strings.Contains(v, "Working… 3s") || !strings.Contains(v, "esc aborts") {
		t.Errorf("view:\n%s", v)
	}
	close(hold)
	r.idle()
	if strings.Contains(r.view(), "Working…") {
		t.Errorf("the working line stayed after the run:\n%s", r.view())
	}
}

// Idle compaction runs when the user has been away, not after new
// activity.
func TestIdleCompaction(t *testing.T) {
	t.Parallel()
	r := newRigWith(t, "compaction:\n  keepRecentTokens: 5\n", answer("first answer with enough words to count"), answer("second answer"), answer("## Goal\nkeep going"), answer("## Turn\nthe second question"), answer("recap"))
	r.typeAndSend("a first question")
	r.idle()
	r.typeAndSend("a second question")
	r.idle()
	r.update(idleMsg{gen: r.m.activity - 1})
	r.settle()
	if len(r.llm.Requests()) != 2 {
		t.Fatal("a stale idle check compacted")
	}
	r.update(idleMsg{gen: r.m.activity})
	r.until("the compaction", func() bool { return r.printedHas("compacted:") || r.printedHas("failed") })
	if !r.printedHas("compacted:") {
		t.Fatal(r.transcript())
	}
}

// Ctrl+P cycles, as omp's, through the models of the roles of cycleOrder
// (smol, default, slow) and leaves config.yml as it was; with only one role
// assigned it says so. Shift+Tab cycles the thinking level of a reasoning
// model.
func TestCycleModelsAndThinking(t *testing.T) {
	t.Parallel()
	r := newRigWith(t, "modelRoles:\n  default: mock/mock-model\n  slow: mock/other-model:high\n")
	cfgPath := r.s.Config().Settings.GlobalPath()
	before, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	r.key("ctrl+p")
	r.until("the model change", func() bool { m := r.s.Agent().Model(); return m != nil && m.ID == "other-model" })
	r.until("the notice", func() bool { return strings.Contains(r.view(), "Switched to slow") })
	if !strings.Contains(r.view(), "(cycle: default > slow)") || r.s.Agent().Thinking() != ai.ThinkingHigh {
		t.Fatalf("after Ctrl+P: thinking %q\n%s", r.s.Agent().Thinking(), r.view())
	}
	r.key("shift+tab")
	r.until("another thinking level", func() bool { return r.s.Agent().Thinking() != ai.ThinkingHigh })
	r.key("ctrl+p")
	r.until("back to the default role's model", func() bool { return r.s.Agent().Model().ID == "mock-model" })
	r.settle()
	after, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Fatalf("Ctrl+P rewrote config.yml:\n%s", after)
	}

	// Every model has a key, but only one role is assigned.
	one := newRig(t)
	one.key("ctrl+p")
	one.until("the notice", func() bool { return strings.Contains(one.view(), "Only one role model available") })
	if one.s.Agent().Model().ID != "mock-model" {
		t.Fatal("Ctrl+P switched without a second role")
	}
}

// The remaining keys: Shift+Enter adds a line, Esc keeps a draft but
// leaves shell mode, Ctrl+T
// toggles thinking, Tab completes commands and @files.
func TestEditingKeys(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	write(t, filepath.Join(r.project, "internal", "parser.go"), "package internal\n")
	r.key("one")
	r.key("shift+enter")
	r.key("two")
	if got := r.m.ed.text(); got != "one\ntwo" {
		t.Fatalf("shift+enter: %q", got)
	}
	r.key("esc")
	r.key("esc")
	if got := r.m.ed.text(); got != "one\ntwo" {
		t.Fatalf("Esc twice changed a draft (omp keeps it): %q", got)
	}
	r.m.ed.clear()
	r.key("!ls")
	r.key("esc")
	if !r.m.ed.empty() {
		t.Fatal("Esc did not leave shell mode (omp clears the command)")
	}
	r.key("ctrl+t")
	if !r.m.expand {
		t.Fatal("Ctrl+T did not expand thinking")
	}
	r.key("/hel")
	r.key("tab")
	if got := r.m.ed.text(); got != "/help " {
		t.Fatalf("tab on /hel: %q", got)
	}
	r.m.ed.clear()
	r.key("look at @parser")
	r.until("the file popup", func() bool { return r.m.pop != nil })
	r.key("enter")
	if got := r.m.ed.text(); got != "look at @internal/parser.go " {
		t.Fatalf("@ completion: %q", got)
	}
}

// /compact, /branch, /handoff, /copy and /quit.
func TestMoreCommands(t *testing.T) {
	r := newRigWith(t, "compaction:\n  keepRecentTokens: 5\n",
		answer("first"), answer("second"),
		answer("## Goal\nsummary"), answer("## Turn\nprefix"), answer("recap"),
		answer("## Goal\nhand it over"))
	r.typeAndSend("question one")
	r.idle()
	r.typeAndSend("question two")
	r.idle()
	r.typeAndSend("/compact")
	r.until("the compaction", func() bool { return r.printedHas("compacted:") || r.printedHas("✗") })
	if !r.printedHas("compacted:") {
		t.Fatalf("/compact:\n%s", r.transcript())
	}
	r.idle()
	r.typeAndSend("/copy")
	r.settle()
	if !strings.Contains(r.view(), "Copied the last answer") {
		t.Errorf("/copy: %s", r.view())
	}
	r.typeAndSend("/branch")
	if r.m.picker == nil {
		t.Fatal("no branch picker")
	}
	old := r.s.SessionFile()
	r.key("home")
	r.key("enter")
	r.until("the branch", func() bool { return r.printedHas("branched into a new session") })
	r.settle()
	if r.s.SessionFile() == old || r.m.ed.text() != "question one" {
		t.Errorf("/branch: file %s, editor %q", r.s.SessionFile(), r.m.ed.text())
	}
	r.m.ed.clear()
	r.typeAndSend("/handoff")
	r.until("the handoff", func() bool {
		return r.printedHas("handed off") || r.printedHas("✗") || r.printedHas("Nothing to hand off")
	})
	r.typeAndSend("/quit")
	if !r.m.quitting {
		t.Error("/quit did not quit")
	}
}

// A paste that starts with "!" or "/" is a message, never a command; CR
// line ends from a terminal's paste become new lines.
func TestPasteNeverRunsCommands(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("it is a script"))
	marker := filepath.Join(r.project, "injected")
	r.update(pasteMsg("!touch " + marker + "\r" + strings.Repeat("more\r", 12)))
	r.key(" what does this do?")
	r.key("enter")
	r.idle()
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the pasted command ran")
	}
	body := string(r.llm.Requests()[0].Body)
	if !strings.Contains(body, `!touch `) || !strings.Contains(body, `more\nmore`) {
		t.Errorf("the paste was not sent as a message with its lines: %.300s", body)
	}
}

// Esc puts the messages queued for the aborted run back in the editor.
func TestAbortGivesQueuedMessagesBack(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	defer close(hold)
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("slow")}, Hold: hold})
	r.typeAndSend("start")
	// The request must be out: a steer typed before the run's first
	// request is taken into it (and is no longer queued).
	r.until("running", func() bool { return r.m.running && len(r.llm.Requests()) == 1 })
	r.key("steer me")
	r.key("enter")
	r.key("follow me")
	r.key("alt+enter")
	r.until("queued", func() bool { st := r.s.State(); return st.QueuedMessageCount == 2 })
	r.key("esc")
	r.until("the editor", func() bool { return strings.Contains(r.m.ed.text(), "follow me") })
	if got := r.m.ed.text(); got != "steer me\n\nfollow me" {
		t.Errorf("editor %q", got)
	}
}

// @path in a message attaches the file; a word that names no file stays
// text.
func TestAtFileAttaches(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("seen it"))
	write(t, filepath.Join(r.project, "notes.md"), "line one\nline two\n")
	r.typeAndSend("summarise @notes.md and @nowhere.txt")
	r.idle()
	body := string(r.llm.Requests()[0].Body)
	if !strings.Contains(body, "line one\\nline two") {
		t.Errorf("the file was not attached: %.400s", body)
	}
	if !r.printedHas("@notes.md (2 lines)") {
		t.Errorf("transcript:\n%s", r.transcript())
	}
}

// Sent messages are kept in the prompt history (history.db) and come
// back in the next run's history.
func TestHistoryFile(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("ok"))
	store, err := prompthistory.Open(r.m.ctx, filepath.Join(t.TempDir(), "history.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r.m.ed.save = saveHistory(r.m.ctx, store, r.project)
	r.typeAndSend("first run\nwith two lines")
	r.idle()
	m := newModel(r.m.ctx, r.s, Options{NoColor: true, History: store})
	if got := m.ed.history; len(got) < 1 || got[0] != "first run\nwith two lines" {
		t.Errorf("history %q", got)
	}
}

// reloadConfig loads the configuration again (after the test wrote
// project files), trusting the project or not.
func reloadConfig(t *testing.T, cfg *config.Config, trust bool) *config.Config {
	t.Helper()
	c, err := config.Load(config.LoadOptions{Cwd: cfg.Cwd, Home: cfg.Home, Environ: cfg.Env.Environ(), TrustProject: trust})
	if err != nil {
		t.Fatal(err)
	}
	c.Warnings = nil
	return c
}

// /mcp names the servers an untrusted project asked for and that were
// not started.
func TestSlashMCPUntrusted(t *testing.T) {
	t.Parallel()
	r := newRigFull(t, "", func(o *agentsession.Options, _ *models.Registry) {
		write(t, filepath.Join(o.Cwd, ".mcp.json"), `{"mcpServers":{"theirs":{"command":"/nonexistent/mcp-server"}}}`)
		o.Config = reloadConfig(t, o.Config, false)
	})
	r.typeAndSend("/mcp")
	r.settle()
	if !r.printedHas("not started, the project is not trusted: theirs") || r.printedHas("failed") {
		t.Errorf("/mcp:\n%s", r.transcript())
	}
}

// /mcp lists the servers with their state and the configuration problems.
func TestSlashMCP(t *testing.T) {
	t.Parallel()
	r := newRigFull(t, "", func(o *agentsession.Options, _ *models.Registry) {
		write(t, filepath.Join(o.Cwd, ".gopi", "mcp.json"), `{"mcpServers":{"gone":{"command":"/nonexistent/mcp-server"},"remote":{"url":"https://x.example/mcp"}}}`)
		o.Config = reloadConfig(t, o.Config, true) // the project's servers count once it is trusted
	})
	r.typeAndSend("/mcp")
	r.settle()
	for _, want := range []string{"gone", "stdio", "failed", `MCP server "gone" cannot start`, `Server "remote": stdio server requires "command" field`} {
		if !r.printedHas(want) {
			t.Errorf("/mcp lacks %q", want)
		}
	}
}

// Warnings from the start of the session (an extension tool whose
// parameters are not a schema) are printed first, as warnings.
func TestStartupWarningsPrinted(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.printed = nil
	m := newModel(r.m.ctx, r.s, Options{NoColor: true, Record: &r.printed,
		Warnings: []string{"extension odd.js (registerTool): the parameters of the tool text are null, not a JSON Schema object"}})
	m.Init()
	if !r.printedHas("⚠ extension odd.js (registerTool): the parameters of the tool text are null") {
		t.Errorf("printed:\n%s", r.transcript())
	}
}
