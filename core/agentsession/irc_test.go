package agentsession

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// A subagent lists its peers and asks the main agent a question over irc
// while the main agent waits in its task call: the main agent's model
// answers in a side turn without tools, the reply is the subagent's tool
// result, and the exchange is in the main agent's next request. Without
// async.enabled the main agent is not offered irc; a subagent whose agent
// names no tools is (one with a tool list gets irc only by naming it, as
// in omp).
func TestIRCSubagentAsksMain(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t, "")
	r.srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{call("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Asker", "description": "ask", "assignment": "ASSIGN-IRC-7: ask the main agent"},
		}})}},
		mockllm.Turn{Blocks: []mockllm.Block{call("irc", map[string]any{"op": "list"})}, Match: "ASSIGN-IRC-7"},
		mockllm.Turn{Blocks: []mockllm.Block{call("irc", map[string]any{"op": "send", "to": " 0-Main ", "message": "Which database? Q-42"})}, Match: "1 peer(s):"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Use Postgres REPLY-9")}, Match: "Q-42"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("child done")}, Match: "REPLY-9"},
		say2("All done."),
		say2("Next answer."),
	)
	if err := r.s.Prompt(context.Background(), "ask the child", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if r.s.LastAssistantText() != "All done." {
		dumpReqs(t, r)
		t.Fatalf("last answer %q", r.s.LastAssistantText())
	}
	// The exchange joins the main conversation once its run is over,
	// without a run of its own, and is in the next prompt's request.
	testwait.Until(t, "the irc exchange to join the conversation", func() bool {
		n := 0
		for _, m := range r.s.Messages() {
			if c, ok := m.(*message.Custom); ok && (c.CustomType == CustomTypeIRCIncoming || c.CustomType == CustomTypeIRCAutoReply) {
				n++
			}
		}
		return n == 2
	})
	if err := r.s.Prompt(context.Background(), "next", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if r.s.LastAssistantText() != "Next answer." {
		dumpReqs(t, r)
		t.Fatalf("last answer %q", r.s.LastAssistantText())
	}
	if parent := r.request("ask the child"); slices.Contains(parent.tools, "irc") {
		t.Errorf("the main agent is offered irc without async.enabled: %v", parent.tools)
	}
	if child := r.request("ASSIGN-IRC-7"); !slices.Contains(child.tools, "irc") {
		t.Errorf("the subagent has no irc: %v", child.tools)
	}
	var side, listed, replied, final string
	for _, q := range r.srv.Requests() {
		body := string(q.Body)
		switch {
		case strings.Contains(body, `"tool_choice":{"type":"none"}`) && side == "":
			side = body
		case strings.Contains(body, "REPLY-9") && strings.Contains(body, "ASSIGN-IRC-7") && replied == "":
			replied = body
		case strings.Contains(body, "1 peer(s):") && listed == "":
			listed = body
		case strings.Contains(body, "Next answer") || strings.Contains(body, `"next"`):
			final = body
		}
	}
	if !strings.Contains(listed, `- 0-Main [Main · main · running]`) {
		t.Errorf("list result not in the subagent's request:\n%s", listed)
	}
	if !strings.Contains(side, "Which database? Q-42") || !strings.Contains(side, "ask the child") || !strings.Contains(side, `\u003circ\u003e`) {
		t.Errorf("side turn request:\n%s", side)
	}
	if !strings.Contains(replied, `Delivered to 1 peer(s): 0-Main\n\n## Replies\n### 0-Main\nUse Postgres REPLY-9`) {
		t.Errorf("send result not in the subagent's request:\n%s", replied)
	}
	if !strings.Contains(final, "[IRC `0-Asker` → you]") || !strings.Contains(final, "[IRC you → `0-Asker` (auto)]") {
		t.Errorf("the exchange is not in the main agent's next request:\n%s", final)
	}
}

func dumpReqs(t *testing.T, r *taskRig) {
	for i, q := range r.srv.Requests() {
		b := string(q.Body)
		if i := strings.Index(b, `"messages"`); i >= 0 {
			b = b[i:]
		}
		if i := strings.Index(b, `"tools"`); i >= 0 {
			b = b[:i]
		}
		t.Logf("req %d: ...%s", i, b)
	}
}
