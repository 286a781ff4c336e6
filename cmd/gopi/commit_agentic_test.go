package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// agentTurns answers the commit agent: each call in its own turn, then a
// closing text.
func agentTurns(calls ...mockllm.Block) []mockllm.Turn {
	var turns []mockllm.Turn
	for _, c := range calls {
		turns = append(turns, mockllm.Turn{Blocks: []mockllm.Block{c}})
	}
	return append(turns, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}})
}

// commitAgentEnv points gopi at srv with a smol model assigned.
func commitAgentEnv(t *testing.T, srv *mockllm.Server) {
	t.Helper()
	agentDir := isolateAgentEnv(t, mockConfig(srv.URL()))
	write(t, filepath.Join(agentDir, "config.yml"), "modelRoles:\n  smol: anthropic/claude-haiku-4-5\n")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
}

// The default mode: the agent on the smol model looks at the change
// through its git tools, gives the changelog entries and one commit,
// and gopi commits both.
func TestCommitAgentSingleCommit(t *testing.T) {
	dir := gitRepo(t)
	write(t, filepath.Join(dir, "CHANGELOG.md"), "# Changelog\n\n## [Unreleased]\n\n### Added\n- The parser\n")
	gitOut(t, dir, "add", "CHANGELOG.md")
	gitOut(t, dir, "commit", "-q", "-m", "docs: added a changelog")
	srv := mockllm.New(t).Script(agentTurns(
		mockllm.ToolCall("git_overview", `{}`),
		mockllm.ToolCall("git_file_diff", `{"files":["parser.go"]}`),
		mockllm.ToolCall("propose_changelog", `{"entries":[{"path":"CHANGELOG.md","entries":{"Fixed":["Fixed a crash on empty input."]}}]}`),
		mockllm.ToolCall("propose_commit", `{"type":"fix","scope":"parser","summary":"handled empty input in Parse","details":[{"text":"Returned an error instead of panicking."}],"issue_refs":[]}`),
	)...)
	commitAgentEnv(t, srv)
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse(s string) error { return nil }\n")

	out, errOut, code := runCmd(t, "commit", "-c", "empty files crashed")
	if code != 0 {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	for _, want := range []string{
		"● Resolving model...\nNo staged changes detected, staging all changes...\n  └─ ",
		"● Detecting changelog targets...\n  └─ " + filepath.Join(dir, "CHANGELOG.md") + "\n",
		"● Starting commit agent...\n",
		"✓ GitOverview\n",
		"✓ GitFileDiff\n  ⎿ files: parser.go\n",
		"● agent finished (5 messages, 4 tools)\n",
		"● Applying changelog entries...\n  ├─ Applying entries for CHANGELOG.md…\n  └─ " + filepath.Join(dir, "CHANGELOG.md") + "\n",
		"Commit created.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := gitOut(t, dir, "log", "-1", "--format=%B"); strings.TrimSpace(got) != "fix(parser): handled empty input in Parse\n\n- Returned an error instead of panicking." {
		t.Fatalf("commit message %q", got)
	}
	if got := gitOut(t, dir, "show", "HEAD:CHANGELOG.md"); got != "# Changelog\n\n## [Unreleased]\n\n### Added\n- The parser\n\n### Fixed\n- Fixed a crash on empty input\n" {
		t.Fatalf("committed changelog %q", got)
	}
	if st := gitOut(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("left behind: %q", st)
	}
	reqs := srv.Requests()
	first := string(reqs[0].Body)
	for _, s := range []string{"claude-haiku-4-5", `"git_overview"`, `"split_commit"`, `"propose_changelog"`, "empty files crashed", "CHANGELOG.md"} {
		if !strings.Contains(first, s) {
			t.Errorf("first request lacks %q", s)
		}
	}
	if strings.Contains(first, `"name":"bash"`) || strings.Contains(first, `"name":"read"`) {
		t.Error("the commit agent was offered the built-in tools")
	}
	if !strings.Contains(string(reqs[2].Body), "+func Parse(s string) error") {
		t.Error("git_file_diff's answer lacks the diff")
	}
}
