package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// withSkillAndTemplate writes a skill and a prompt template before the
// session starts.
func withSkillAndTemplate(t *testing.T) func(*agentsession.Options, *models.Registry) {
	return func(o *agentsession.Options, _ *models.Registry) {
		write(t, filepath.Join(o.Config.AgentDir, "skills", "git", "SKILL.md"), "---\ndescription: Git workflows\n---\nAlways rebase onto main.\n")
		write(t, filepath.Join(o.Cwd, ".gopi", "prompts", "review.md"), "---\ndescription: Review a file\n---\nReview $1 carefully.\n")
	}
}

// /skill:<name> and /<template> are sent to the model: when idle as the
// prompt, while the agent works as a steer (Enter) or a follow-up
// (Alt+Enter, which this terminal rig sends for Ctrl+Enter too).
func TestSkillAndTemplateCommands(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := newRigFull(t, "", withSkillAndTemplate(t),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo working"}`)}, Hold: hold},
		answer("steered"),
		answer("followed up"),
		answer("idle skill"),
	)
	r.typeAndSend("start")
	r.until("the run to start", func() bool { return r.m.running })
	r.typeAndSend("/skill:git keep history linear")
	r.key("/review main.go")
	r.key("alt+enter")
	r.settle()
	close(hold)
	r.idle()
	r.typeAndSend("/skill:git")
	r.idle()
	reqs := r.llm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4\n%s", len(reqs), r.transcript())
	}
	if b := string(reqs[1].Body); !strings.Contains(b, "Always rebase onto main.") || !strings.Contains(b, "User: keep history linear") || strings.Contains(b, "Review main.go") {
		t.Errorf("the steered skill did not reach the second request alone:\n%s", b)
	}
	if b := string(reqs[2].Body); !strings.Contains(b, "Review main.go carefully.") {
		t.Errorf("the template follow-up did not reach the third request:\n%s", b)
	}
	if b := string(reqs[3].Body); strings.Count(b, "Always rebase onto main.") != 2 {
		t.Errorf("the idle skill prompt was not sent:\n%s", b)
	}
	if r.printedHas("Unknown command") {
		t.Errorf("a skill or template was taken for an unknown command:\n%s", r.transcript())
	}
}

func TestSkillsCommandAndCompletion(t *testing.T) {
	t.Parallel()
	r := newRigFull(t, "", withSkillAndTemplate(t))
	r.key("/skill:g")
	r.key("tab")
	if v := r.m.ed.ta.Value(); v != "/skill:git " {
		t.Errorf("completion gave %q", v)
	}
	r.m.ed.clear()
	r.typeAndSend("/skills")
	r.settle()
	for _, want := range []string{"git", "Git workflows", "/review", "Review a file"} {
		if !r.printedHas(want) {
			t.Errorf("/skills lacks %q:\n%s", want, r.transcript())
		}
	}
}

// A stream rule stops an answer that breaks it; the transcript says so and
// shows the answer given with the rule in front of the model.
func TestStreamRuleNote(t *testing.T) {
	t.Parallel()
	r := newRigFull(t, "", func(o *agentsession.Options, _ *models.Registry) {
		write(t, filepath.Join(o.Cwd, ".gopi", "rules", "nolog.md"), "---\ncondition: \"console\\\\.log\"\n---\nNo console.log calls.\n")
	},
		mockllm.Turn{Blocks: []mockllm.Block{text("I will add console.log calls everywhere and then some more text")}, ChunkSize: 4, StallAfterDeltas: 12},
		answer("Using the logger."),
	)
	r.typeAndSend("add logging")
	r.idle()
	for _, want := range []string{"stopped and asked again with rule nolog", "Using the logger."} {
		if !r.printedHas(want) {
			t.Errorf("the transcript lacks %q:\n%s", want, r.transcript())
		}
	}
	if b := string(r.llm.Requests()[1].Body); !strings.Contains(b, "No console.log calls.") {
		t.Errorf("the rule did not reach the second request:\n%s", b)
	}
}
