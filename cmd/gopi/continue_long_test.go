package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/sessiongen"
)

// `gopi -p --continue` on a long generated session (compactions, branches
// left behind, blobs): the request starts from the latest compaction's
// summary and ends with the new prompt after the last answer, nothing is
// reported, and the file keeps every byte it had, the new turn appended.
func TestContinueLongSession(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Carrying on.")}})
	dir := filepath.Join(r.Home, "sessions")
	st, err := sessiongen.Write(sessiongen.Options{Dir: dir, BlobDir: filepath.Join(r.AgentDir, "blobs"), Cwd: r.Project,
		Entries: 3000, Bytes: 3_000_000, Seed: 11, CompactAt: 20_000, KeepRecent: 4_000})
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(st.Path)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := session.OpenSnapshot(st.Path, session.Options{BlobDir: filepath.Join(r.AgentDir, "blobs")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ref.BuildContext().Messages
	summary := ctx[0].(*message.CompactionSummary).Summary
	last := ctx[len(ctx)-1].(*ai.AssistantMessage).Text()

	out, stderr, code := r.run("", "-p", "--continue", "--session-dir", dir, "--model", "mock/mock-model", "go on")
	if code != 0 || out != "Carrying on.\n" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(0))
	first, lastAt, prompt := strings.Index(msgs, agentrig.MustMarshal(t, summary)[1:40]), strings.LastIndex(msgs, agentrig.MustMarshal(t, last)[1:40]), strings.LastIndex(msgs, "go on")
	if first < 0 || lastAt < first || prompt < lastAt {
		t.Errorf("request: summary at %d, last answer at %d, prompt at %d (want them in that order)", first, lastAt, prompt)
	}
	after, err := os.ReadFile(st.Path)
	if err != nil || !bytes.HasPrefix(after, before) || len(after) == len(before) {
		t.Fatalf("the session file was not kept byte for byte with the new turn appended (%d → %d bytes, %v)", len(before), len(after), err)
	}
}
