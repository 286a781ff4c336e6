package session

import (
	"slices"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// omp 14.9.9's checkpoint/rewind file (testdata/omp/checkpoint.jsonl): the
// rewind's branch_summary hangs off the checkpoint's tool result with the
// report as its summary, the hidden rewind-report custom_message follows
// it; gopi re-encodes both byte for byte, and the context rebuilt from the
// leaf is the conversation up to the checkpoint, the summary, the report
// and the answer — without the exploration.
func TestOmpCheckpointRewind(t *testing.T) {
	t.Parallel()
	m := must[*Manager](t)(Open(copyFixture(t, "omp/checkpoint.jsonl"), Options{}))
	var summary, report, anchor *Entry
	for _, e := range m.Entries() {
		switch {
		case e.Type == TypeBranchSummary:
			summary = e
		case e.Type == TypeCustomMessage && e.CustomMessage.CustomType == "rewind-report":
			report = e
		case e.Type == TypeMessage:
			if r, ok := e.Message.(*ai.ToolResultMessage); ok && r.ToolName == "checkpoint" {
				anchor = e
			}
		}
	}
	if summary == nil || report == nil || anchor == nil {
		t.Fatal("the fixture lacks the checkpoint result, the branch summary or the rewind report")
	}
	if summary.ParentID != anchor.ID || summary.BranchSummary.FromID != anchor.ID || report.ParentID != summary.ID {
		t.Errorf("summary %s (parent %s), report parent %s, checkpoint result %s", summary.ID, summary.ParentID, report.ParentID, anchor.ID)
	}
	if report.CustomMessage.Display || report.CustomMessage.Attribution != "agent" || report.CustomMessage.Content.Text() != summary.BranchSummary.Summary {
		t.Errorf("rewind report %s", report.Raw())
	}
	for _, e := range []*Entry{summary, report} {
		enc, err := e.encode()
		if err == nil {
			enc, err = prepare(enc, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if string(enc) != string(e.Raw()) {
			t.Errorf("gopi encodes omp's %s entry differently:\n got %s\nwant %s", e.Type, enc, e.Raw())
		}
	}
	var roles []string
	for _, msg := range m.BuildContext().Messages {
		roles = append(roles, string(msg.MessageRole()))
		if r, ok := msg.(*ai.ToolResultMessage); ok && r.ToolName != "checkpoint" {
			t.Errorf("the exploration's %s result is in the context", r.ToolName)
		}
	}
	want := []string{"user", "assistant", "toolResult", string(message.RoleBranchSummary), "custom", "assistant"}
	if !slices.Equal(roles, want) {
		t.Errorf("context roles %v, want %v", roles, want)
	}
}
