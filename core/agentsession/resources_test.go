package agentsession

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// requestText joins the text of every message of a request.
func requestText(req *ai.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		switch m := m.(type) {
		case *ai.UserMessage:
			for _, c := range m.Content {
				if t, ok := c.(*ai.TextContent); ok {
					b.WriteString(t.Text + "\n")
				}
			}
		case *ai.AssistantMessage:
			for _, c := range m.Content {
				if t, ok := c.(*ai.TextContent); ok {
					b.WriteString(t.Text + "\n")
				}
			}
		}
	}
	return b.String()
}

// streamThenWait streams text and then waits until the stream is
// cancelled, as a provider still producing would.
func streamThenWait(pieces ...string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		for _, p := range pieces {
			em.TextDelta(i, p)
		}
		<-ctx.Done()
		em.Fail(ctx, req.Model, ctx.Err())
	}
}

func TestSystemPromptListsSkillsAndRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.home, ".gopi", "agent", "skills", "pdf", "SKILL.md"), "---\nname: pdf\ndescription: Work with PDF files\n---\nUse pdftotext.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "tabs.md"), "---\nalwaysApply: true\n---\nIndent with tabs.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "go.md"), "---\ndescription: Go conventions\n---\nGo text.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "broken.md"), "---\ndescription: broken [\nalwaysApply: [\n---\nBroken.\n")
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	sp := s.SystemPrompt()
	for _, want := range []string{"- pdf: Work with PDF files", "Indent with tabs.", "- go: Go conventions", "rule://<name>", "skill://<name>"} {
		if !strings.Contains(sp, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	var warned bool
	for _, w := range s.Resources().Warnings() {
		if strings.Contains(w.Error(), filepath.Join(".gopi", "rules", "broken.md")) {
			warned = true
		}
	}
	if !warned {
		t.Errorf("broken front matter not reported: %v", s.Resources().Warnings())
	}
	// The session keeps working.
	f.script.add(say("fine"))
	if err := s.Prompt(context.Background(), "hi", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	// --no-skills and --no-rules leave them out.
	s2 := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSkills: true, NoRules: true, NoSession: true})
	if sp := s2.SystemPrompt(); strings.Contains(sp, "pdf") || strings.Contains(sp, "tabs") {
		t.Error("--no-skills/--no-rules still listed them")
	}
}

func TestPromptExpandsTemplatesAndSkills(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.project, ".gopi", "prompts", "review.md"), "---\ndescription: Review a file\n---\nReview $1 with care about $2.")
	writeFile(t, filepath.Join(f.home, ".claude", "skills", "git", "SKILL.md"), "---\ndescription: Git workflows\n---\nAlways rebase.\n")
	f.script.add(say("reviewed"), say("rebased"))
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	if err := s.Prompt(ctx, `/review main.go "error handling"`, PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Prompt(ctx, "/skill:git tidy the branch", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if got := userTexts(reqs[0].Messages); !slices.Equal(got, []string{"Review main.go with care about error handling."}) {
		t.Errorf("template request: %q", got)
	}
	second := requestText(reqs[1])
	if !strings.Contains(second, "Always rebase.") || strings.Contains(second, "description:") || !strings.Contains(second, "User: tidy the branch") {
		t.Errorf("skill request:\n%s", second)
	}
	var custom *message.Custom
	for _, m := range s.Messages() {
		if c, ok := m.(*message.Custom); ok && c.CustomType == CustomTypeSkill {
			custom = c
		}
	}
	if custom == nil || !strings.Contains(string(custom.Details), `"name":"git"`) {
		t.Errorf("skill custom message: %+v", custom)
	}
	if err := s.Prompt(ctx, "/skill:nope", PromptOptions{}); err == nil || !strings.Contains(err.Error(), "git") {
		t.Errorf("unknown skill: %v", err)
	}
}

func TestTTSRInterruptsTheStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "nolog.md"), "---\ncondition: \"console\\\\.log\\\\(\"\nalwaysApply: true\n---\nNever leave console.log calls in the code.\n")
	f.script.add(streamThenWait("Let me add a con", "sole.log(x) call", " and more"), say("I will use the logger instead."))
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if strings.Contains(s.SystemPrompt(), "Never leave console.log") {
		t.Error("a rule with a condition went into the system prompt too (TTSR wins over alwaysApply)")
	}
	var mu sync.Mutex
	var triggered []TTSRTriggered
	var aborted int
	cancel := s.Subscribe(func(ev agent.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case TTSRTriggered:
			triggered = append(triggered, e)
		case agent.MessageEnd:
			if am, ok := e.Message.(*ai.AssistantMessage); ok && am.StopReason == ai.StopReasonAborted {
				aborted++
			}
		}
	})
	defer cancel()
	// Without the interrupt the first response never ends: the deadline
	// turns that into a failure instead of a hung test.
	ctx, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	if err := s.Prompt(ctx, "add logging", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	second := requestText(reqs[1])
	if !strings.Contains(second, "Never leave console.log calls") || !strings.Contains(second, `rule name="nolog"`) {
		t.Errorf("the second request lacks the rule:\n%s", second)
	}
	if strings.Contains(second, "Let me add") {
		t.Errorf("the stopped response was not discarded:\n%s", second)
	}
	if la := s.LastAssistant(); la == nil || la.Content[0].(*ai.TextContent).Text != "I will use the logger instead." {
		t.Errorf("last answer %+v", la)
	}
	mu.Lock()
	if len(triggered) != 1 || !slices.Equal(triggered[0].Rules, []string{"nolog"}) || !triggered[0].Interrupted || aborted != 1 {
		t.Errorf("events: triggered %+v, aborted message_end %d", triggered, aborted)
	}
	mu.Unlock()
	path := s.SessionFile()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"model_change", "thinking_level_change", "message:user", "message:custom", "ttsr_injection", "message:assistant"}
	if got := entryTypes(t, path); !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	// Resumed, the rule has fired already (repeat mode once): the same
	// output now streams to the end.
	store, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := store.BuildContext().InjectedTTSRRules; !slices.Equal(got, []string{"nolog"}) {
		t.Errorf("injected rules on resume %v", got)
	}
	f.script.add(say("console.log(again)"))
	s2 := f.open(Options{Config: cfg, Models: reg, Store: store, NoTitle: true})
	if err := s2.Prompt(context.Background(), "once more", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if la := s2.LastAssistant(); la == nil || la.StopReason != ai.StopReasonStop {
		t.Errorf("resumed session interrupted again: %+v", la)
	}
}

func TestTTSRNeverModeFollowsTheTurn(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "todo.md"), "---\ncondition: TODO\ninterruptMode: never\n---\nFile an issue instead of writing TODO.\n")
	f.script.add(say("Done. TODO: tests."), say("Filed an issue instead."))
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	if err := s.Prompt(context.Background(), "finish", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the rule follows the finished turn)", len(reqs))
	}
	second := requestText(reqs[1])
	if !strings.Contains(second, "Done. TODO: tests.") || !strings.Contains(second, "File an issue instead") {
		t.Errorf("second request:\n%s", second)
	}
}

// Subagents get the parent's skills and rules without discovering again.
func TestChildInheritsSkillsAndRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.home, ".gopi", "agent", "skills", "pdf", "SKILL.md"), "---\ndescription: Work with PDF files\n---\nUse pdftotext.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "go.md"), "---\ndescription: Go conventions\n---\nGo text.\n")
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	child, err := s.NewChild(context.Background(), ChildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer child.Close()
	if len(child.Resources().Skills()) != 1 || child.Resources().Rules() != s.Resources().Rules() {
		t.Errorf("child skills %v, same rules %v", child.Resources().Skills(), child.Resources().Rules() == s.Resources().Rules())
	}
	if sp := child.SystemPrompt(); !strings.Contains(sp, "- pdf: Work with PDF files") || !strings.Contains(sp, "- go: Go conventions") {
		t.Error("the child's system prompt lacks the parent's skills or rules")
	}
}

// skills.customDirectories: "~/" and relative paths work; nested roots are
// scanned one level deep like the others.
func TestCustomSkillDirectories(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.home, "team", "skills", "deploy", "SKILL.md"), "---\ndescription: Deploy the service\n---\nx\n")
	writeFile(t, filepath.Join(f.project, "tools", "skills", "lint", "SKILL.md"), "---\ndescription: Lint\n---\ny\n")
	writeFile(t, filepath.Join(f.project, "tools", "skills", "nodesc", "SKILL.md"), "no front matter\n")
	writeFile(t, filepath.Join(f.home, ".gopi", "agent", "config.yml"), "skills:\n  customDirectories: [\"~/team/skills\", \"tools/skills\"]\n")
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	var names []string
	for _, sk := range s.Resources().Skills() {
		names = append(names, sk.Name)
	}
	if strings.Join(names, ",") != "deploy,lint" {
		t.Errorf("skills %v, want deploy and lint (custom directories need a description)", names)
	}
}
