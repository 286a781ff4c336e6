package rpc_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// openSession loads a session file for inspection.
func openSession(t *testing.T, path string) *session.Manager {
	t.Helper()
	m, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// The session tree, /branch and handoff over RPC against the mock LLM
// (Anthropic wire format):
//   - navigate_tree to a user message moves the leaf before it and returns
//     its text; a prompt then grows a second branch in the same file;
//   - navigate_tree back with summarize writes a branch_summary entry
//     (fromId, the summary with its preamble and file tags, details) at
//     the new position, from a summary request that holds the branch left;
//   - get_tree lists the rows under each filter, set_label marks one;
//   - branch starts a new file linked by parentSession, holding the path
//     up to the message and the label;
//   - handoff sends the next turn's request with tool_choice none and a
//     trailing user message, then continues in a new session linked to
//     the branch file that starts with the handoff custom message;
//   - bad input (unknown ids, a non-user entry) fails and changes nothing;
//     an aborted handoff answers "Handoff cancelled" and changes nothing.
func TestRPCTreeBranchHandoff(t *testing.T) {
	t.Parallel()
	answer := func(s string) mockllm.Turn { return mockllm.Turn{Blocks: []mockllm.Block{text(s)}} }
	r := newAgentRig(t,
		answer("a1"),
		answer("a2"),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("read", `{"path":"notes.txt"}`)}},
		answer("b2"),
		mockllm.Turn{Match: "has just left", Blocks: []mockllm.Block{text("## Objective\nAsk q2 another way.")}},
		mockllm.Turn{Match: "write a handoff document", Blocks: []mockllm.Block{text("## Goal\nAnswer q2.")}},
		answer("c1"),
		// The aborted handoff stalls until the abort.
		mockllm.Turn{Match: "write a handoff document", Blocks: []mockllm.Block{text("never")}, StallAfter: 1},
	)
	r.Write("notes.txt", "some notes\n")
	rr := startRPC(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	prompt := func(p string) {
		t.Helper()
		end := rr.Expect("agent_end")
		if resp := rr.Call("prompt", map[string]any{"message": p}); !resp.Success {
			t.Fatalf("prompt: %+v", resp)
		}
		end()
	}
	prompt("q1")
	prompt("q2")
	file := r.SessionFiles()[0]

	msgs, err := rr.C.BranchMessages(ctx)
	if err != nil || len(msgs) != 2 || msgs[0].Text != "q1" || msgs[1].Text != "q2" {
		t.Fatalf("branch messages %+v %v", msgs, err)
	}
	q1, q2 := msgs[0].EntryID, msgs[1].EntryID
	m := openSession(t, file)
	a2 := m.LeafID()
	m.Close()

	// /tree to q2: the leaf goes before it, the text comes back.
	nav, err := rr.C.NavigateTree(ctx, q2, false, "")
	if err != nil || nav.EditorText != "q2" || nav.Cancelled || nav.SummaryEntry != nil {
		t.Fatalf("navigate to q2: %+v %v", nav, err)
	}
	prompt("q2 again")
	if files := r.SessionFiles(); len(files) != 1 {
		t.Fatalf("navigation made files %v", files)
	}

	// Back to a2 with a summary of the branch left.
	nav, err = rr.C.NavigateTree(ctx, a2, true, "")
	if err != nil || nav.SummaryEntry == nil {
		t.Fatalf("navigate to a2: %+v %v", nav, err)
	}
	reqs := r.Srv.Requests()
	sumBody := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(sumBody, "User: q2 again") || !strings.Contains(sumBody, `read(path=\"notes.txt\")`) || strings.Contains(sumBody, "User: q1") {
		t.Errorf("summary request: %.600s", sumBody)
	}
	m = openSession(t, file)
	leaf := m.Leaf()
	if leaf.Type != session.TypeBranchSummary || leaf.ParentID != a2 || leaf.BranchSummary.FromID != a2 ||
		!strings.HasPrefix(leaf.BranchSummary.Summary, "The user explored another branch") ||
		!strings.Contains(leaf.BranchSummary.Summary, "## Objective\nAsk q2 another way.") ||
		!strings.HasSuffix(leaf.BranchSummary.Summary, "<read-files>\nnotes.txt\n</read-files>") ||
		string(leaf.BranchSummary.Details) != `{"readFiles":["notes.txt"],"modifiedFiles":[]}` {
		t.Errorf("branch_summary entry %s", leaf.Raw())
	}
	var navEntry map[string]any
	if err := json.Unmarshal(nav.SummaryEntry, &navEntry); err != nil || navEntry["id"] != leaf.ID || navEntry["type"] != "branch_summary" {
		t.Errorf("summaryEntry in the response: %s", nav.SummaryEntry)
	}
	m.Close()

	// The tree: labels and filters.
	if err := rr.C.SetLabel(ctx, q1, "start"); err != nil {
		t.Fatal(err)
	}
	leafID, rows, err := rr.C.Tree(ctx, "default", "")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, row := range rows {
		line := strings.Repeat("   ", row.Indent)
		if row.Active {
			line += "• "
		}
		if row.Label != "" {
			line += "[" + row.Label + "] "
		}
		lines = append(lines, line+row.Text)
	}
	want := []string{
		"• [start] user: q1",
		"• assistant: a1",
		"   • user: q2",
		"      • assistant: a2",
		"      • [branch summary]: The user explored another branch of this conversation and came back to this point. Notes on that branch:  ## Objective Ask q2 another way.  <read-files> notes.txt </read-files>",
		"   user: q2 again",
		"      [read: notes.txt]",
		"      assistant: b2",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") || leafID == "" {
		t.Errorf("tree (leaf %q):\n%s", leafID, strings.Join(lines, "\n"))
	}
	if _, rows, _ := rr.C.Tree(ctx, "labeled-only", ""); len(rows) != 1 || rows[0].EntryID != q1 {
		t.Errorf("labeled-only %+v", rows)
	}
	if _, rows, _ := rr.C.Tree(ctx, "user-only", "again"); len(rows) != 1 || rows[0].Text != "user: q2 again" {
		t.Errorf("user-only search %+v", rows)
	}
	if resp := rr.Call("get_tree", map[string]any{"filter": "tools"}); resp.Success || !strings.Contains(resp.Error, "no-tools") {
		t.Errorf("unknown filter: %+v", resp)
	}

	// Bad input changes nothing.
	before, _ := os.ReadFile(file)
	for _, c := range []struct{ typ, id, want string }{
		{"navigate_tree", "nope1234", `cannot navigate to entry "nope1234": entry not found in this session`},
		{"branch", "nope1234", `cannot branch from entry "nope1234": entry not found in this session`},
		{"branch", a2, "is not a user message"},
	} {
		if resp := rr.Call(c.typ, map[string]any{"entryId": c.id}); resp.Success || !strings.Contains(resp.Error, c.want) {
			t.Errorf("%s %s: %+v", c.typ, c.id, resp)
		}
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("bad input changed the session")
	}

	// /branch from q2: a new file linked to the old one.
	text, cancelled, err := rr.C.Branch(ctx, q2)
	if err != nil || text != "q2" || cancelled {
		t.Fatalf("branch: %q %v %v", text, cancelled, err)
	}
	st, err := rr.C.GetState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	branchFile := st.SessionFile
	b := openSession(t, branchFile)
	var types []string
	for _, e := range b.Entries() {
		types = append(types, e.Type)
	}
	if branchFile == file || b.Header().ParentSession != file || types[len(types)-1] != session.TypeLabel ||
		strings.Count(strings.Join(types, " "), "message") != 2 || b.Label(q1) != "start" || st.MessageCount != 2 {
		t.Errorf("branch file %s: parent %q, entries %v, %d messages", branchFile, b.Header().ParentSession, types, st.MessageCount)
	}
	b.Close()

	// Handoff: one request like the next turn, then a linked session.
	before, _ = os.ReadFile(branchFile)
	h, err := rr.C.Handoff(ctx, "the second question")
	if err != nil || h == nil || h.Document != "## Goal\nAnswer q2." || h.SessionFile == branchFile {
		t.Fatalf("handoff %+v %v", h, err)
	}
	reqs = r.Srv.Requests()
	hb := string(reqs[len(reqs)-1].Body)
	var body struct {
		System     json.RawMessage `json:"system"`
		ToolChoice map[string]any  `json:"tool_choice"`
		Tools      []any           `json:"tools"`
	}
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	var prevBody struct {
		System json.RawMessage `json:"system"`
		Tools  []any           `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &prevBody); err != nil {
		t.Fatal(err)
	}
	if body.ToolChoice["type"] != "none" || len(body.Tools) == 0 || len(body.Tools) != len(prevBody.Tools) ||
		!strings.Contains(hb, "Pay particular attention to: the second question") || !strings.Contains(hb, `"text":"q1"`) {
		t.Errorf("handoff request: tool_choice %v, %d tools (%d before): %.300s", body.ToolChoice, len(body.Tools), len(prevBody.Tools), hb)
	}
	if after, _ := os.ReadFile(branchFile); string(after) != string(before) {
		t.Error("the handoff changed the session it left")
	}
	n := openSession(t, h.SessionFile)
	entries := n.Entries()
	if n.Header().ParentSession != branchFile || len(entries) != 1 || entries[0].Type != session.TypeCustomMessage ||
		entries[0].CustomMessage.CustomType != "handoff" || !entries[0].CustomMessage.Display ||
		!strings.HasPrefix(entries[0].CustomMessage.Content.Text(), "<handoff-context>\n## Goal\nAnswer q2.\n</handoff-context>\n\n") {
		t.Errorf("handoff session: parent %q, entries %d %s", n.Header().ParentSession, len(entries), entries[0].Raw())
	}
	n.Close()

	// An aborted handoff: "Handoff cancelled", nothing changes.
	prompt("continue")
	before, _ = os.ReadFile(h.SessionFile)
	count := len(r.Srv.Requests())
	done := make(chan *rpcclient.Response, 1)
	go func() {
		resp, _ := rr.C.Call(context.Background(), "handoff", nil)
		done <- resp
	}()
	testwait.Until(t, "the handoff to call the model", func() bool { return len(r.Srv.Requests()) > count })
	if resp := rr.Call("abort", nil); !resp.Success {
		t.Fatalf("abort: %+v", resp)
	}
	if resp := <-done; resp == nil || resp.Success || resp.Error != "Handoff cancelled" {
		t.Fatalf("aborted handoff: %+v", resp)
	}
	if after, _ := os.ReadFile(h.SessionFile); string(after) != string(before) {
		t.Error("the aborted handoff changed the session")
	}
	if st, _ := rr.C.GetState(ctx); st.SessionFile != h.SessionFile {
		t.Errorf("session file %s after the aborted handoff", st.SessionFile)
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
}
