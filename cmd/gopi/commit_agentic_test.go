package main

import (
	"fmt"
	"os"
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
		"\uf00c GitOverview\n",
		"\uf00c GitFileDiff\n  ⎿ files: parser.go\n",
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

// splitRepo stages three changes: a new helper (util.go), its use
// (parser.go), and a file with two distant hunks (lines.txt).
func splitRepo(t *testing.T) string {
	t.Helper()
	dir := gitRepo(t)
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	write(t, filepath.Join(dir, "lines.txt"), strings.Join(lines, "\n")+"\n")
	gitOut(t, dir, "add", "lines.txt")
	gitOut(t, dir, "commit", "-q", "-m", "test: added lines")
	lines[1], lines[18] = "line two", "line nineteen"
	write(t, filepath.Join(dir, "lines.txt"), strings.Join(lines, "\n")+"\n")
	write(t, filepath.Join(dir, "util.go"), "package parser\n\nfunc trim(s string) string { return s }\n")
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse(s string) string { return trim(s) }\n")
	gitOut(t, dir, "add", "-A")
	return dir
}

// splitPlan is the agent's split of splitRepo's changes: the use of the
// helper (with the first hunk of lines.txt) depends on the helper, which
// the plan lists second.
const splitPlan = `{"commits":[
 {"changes":[{"path":"parser.go","hunks":{"type":"all"}},{"path":"lines.txt","hunks":{"type":"indices","indices":[1]}}],"type":"feat","scope":"parser","summary":"trimmed input in Parse","dependencies":[1]},
 {"changes":[{"path":"util.go","hunks":{"type":"all"}}],"type":"feat","scope":"parser","summary":"added the trim helper","details":[{"text":"Added trim for Parse."}]}]}`

// A split is committed in dependency order, each commit with its own
// files and hunks; the hunk no commit took stays staged.
func TestCommitAgentSplitInDependencyOrder(t *testing.T) {
	dir := splitRepo(t)
	srv := mockllm.New(t).Script(agentTurns(mockllm.ToolCall("git_overview", `{}`), mockllm.ToolCall("split_commit", splitPlan))...)
	commitAgentEnv(t, srv)
	out, errOut, code := runCmd(t, "commit")
	if code != 0 || !strings.HasSuffix(out, "Split commits created.\n") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if got := gitOut(t, dir, "log", "-3", "--format=%s"); got != "feat(parser): trimmed input in Parse\nfeat(parser): added the trim helper\ntest: added lines\n" {
		t.Fatalf("log:\n%s", got)
	}
	if got := gitOut(t, dir, "show", "--format=%b", "--name-only", "HEAD~1"); got != "- Added trim for Parse.\n\n\nutil.go\n" {
		t.Fatalf("the helper's commit: %q", got)
	}
	if got := gitOut(t, dir, "show", "--format=", "--name-only", "HEAD"); got != "lines.txt\nparser.go\n" {
		t.Fatalf("the use's commit: %q", got)
	}
	if got := gitOut(t, dir, "show", "HEAD:lines.txt"); !strings.Contains(got, "line two\n") || !strings.Contains(got, "line 19\n") {
		t.Fatalf("lines.txt was not committed by its first hunk only:\n%s", got)
	}
	if got := gitOut(t, dir, "diff", "--cached"); !strings.Contains(got, "-line 19\n+line nineteen\n") || strings.Contains(got, "line two") {
		t.Fatalf("the hunk left out is not what stays staged:\n%s", got)
	}
	if got := gitOut(t, dir, "diff"); got != "" {
		t.Fatalf("the work tree differs from the index:\n%s", got)
	}
}

// --dry-run prints the split plan and changes nothing: not HEAD, not the
// index, not the files.
func TestCommitAgentSplitDryRun(t *testing.T) {
	dir := splitRepo(t)
	srv := mockllm.New(t).Script(agentTurns(mockllm.ToolCall("split_commit", splitPlan))...)
	commitAgentEnv(t, srv)
	head, index := gitOut(t, dir, "rev-parse", "HEAD"), gitOut(t, dir, "write-tree")
	out, errOut, code := runCmd(t, "commit", "--dry-run")
	want := "\nSplit commit plan (dry run):\nCommit 1:\nfeat(parser): trimmed input in Parse\nChanges: parser.go (all), lines.txt (hunks 1)\n" +
		"Commit 2:\nfeat(parser): added the trim helper\n\n- Added trim for Parse.\nChanges: util.go (all)\n"
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if gitOut(t, dir, "rev-parse", "HEAD") != head || gitOut(t, dir, "write-tree") != index || gitOut(t, dir, "diff") != "" {
		t.Fatal("--dry-run changed the repository")
	}
}

// A pre-commit hook refusing the second commit of a split stops it
// there: the first commit stays, the index still holds the rest, the
// work tree is untouched, and the error says all of it.
func TestCommitAgentSplitHookRefuses(t *testing.T) {
	dir := splitRepo(t)
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	write(t, hook, "#!/bin/sh\nif git diff --cached --name-only | grep -q '^parser.go$'; then echo 'hook: parser.go refused' >&2; exit 1; fi\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := mockllm.New(t).Script(agentTurns(mockllm.ToolCall("split_commit", splitPlan))...)
	commitAgentEnv(t, srv)
	out, errOut, code := runCmd(t, "commit")
	want := `gopi commit: commit 1 (feat(parser): trimmed input in Parse): git commit: hook: parser.go refused; committed before it: "feat(parser): added the trim helper"; still staged, as before: lines.txt, parser.go (fix the cause and run gopi commit again for the rest)` + "\n"
	if code != exitError || errOut != want {
		t.Fatalf("exit %d: %q\nstderr %q\nwant   %q", code, out, errOut, want)
	}
	if got := gitOut(t, dir, "log", "-2", "--format=%s"); got != "feat(parser): added the trim helper\ntest: added lines\n" {
		t.Fatalf("log:\n%s", got)
	}
	if got := gitOut(t, dir, "diff", "--cached", "--stat"); !strings.Contains(got, "lines.txt") || !strings.Contains(got, "parser.go") || strings.Contains(got, "util.go") {
		t.Fatalf("staged now:\n%s", got)
	}
	if got := gitOut(t, dir, "diff"); got != "" {
		t.Fatalf("the work tree was changed:\n%s", got)
	}
}

// An agent that only talks is reminded three times, then the message is
// made from the file names, and a line says so.
func TestCommitAgentGarbageFallsBack(t *testing.T) {
	dir := gitRepo(t)
	var turns []mockllm.Turn
	for range 4 {
		turns = append(turns, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Looks good to me!")}})
	}
	srv := mockllm.New(t).Script(turns...)
	commitAgentEnv(t, srv)
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse() {}\n")
	out, errOut, code := runCmd(t, "commit")
	if code != 0 || !strings.Contains(out, "● Agent did not provide proposal, using fallback...\nWarnings:\n- Commit generated using fallback due to agent failure\nCommit created.\n") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if got := gitOut(t, dir, "log", "-1", "--format=%B"); strings.TrimSpace(got) != "refactor: refactored parser.go\n\n- Updated parser.go" {
		t.Fatalf("commit message %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || !strings.Contains(string(reqs[3].Body), "Reminder 3 of 3") {
		t.Fatalf("%d requests; the last does not remind", len(reqs))
	}
}

// A change of blank lines only needs no model.
func TestCommitAgentTrivialChange(t *testing.T) {
	dir := gitRepo(t)
	srv := mockllm.New(t)
	commitAgentEnv(t, srv)
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\n\n")
	out, errOut, code := runCmd(t, "commit", "--no-changelog")
	if code != 0 || !strings.Contains(out, "● Detected trivial change: formatted code\nCommit created.\n") || len(srv.Requests()) != 0 {
		t.Fatalf("exit %d (%d requests): %q %q", code, len(srv.Requests()), out, errOut)
	}
	if got := gitOut(t, dir, "log", "-1", "--format=%s"); got != "style: formatted code\n" {
		t.Fatalf("commit %q", got)
	}
}

// A request the provider refuses ends the agent: the error is shown, and
// the message made from the file names is committed.
func TestCommitAgentFailureFallsBack(t *testing.T) {
	dir := gitRepo(t)
	srv := mockllm.New(t).Script(mockllm.Turn{Status: 401, ErrorMessage: "invalid x-api-key"})
	commitAgentEnv(t, srv)
	write(t, filepath.Join(dir, "README.md"), "# Parser\n")
	out, errOut, code := runCmd(t, "commit")
	if code != 0 || !strings.Contains(out, "● Using fallback commit generation...\nWarnings:\n- Commit generated using fallback due to agent failure\nCommit created.\n") ||
		!strings.HasPrefix(errOut, "Agent error: anthropic/claude-haiku-4-5: ") || !strings.Contains(errOut, "invalid x-api-key") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if got := gitOut(t, dir, "log", "-1", "--format=%B"); strings.TrimSpace(got) != "docs: updated documentation for README.md\n\n- Updated README.md" {
		t.Fatalf("commit message %q", got)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests after a refusal", n)
	}
}

// analyze_files runs a read-only subagent on the smol model per file and
// gives the agent its answer.
func TestCommitAgentAnalyzeFiles(t *testing.T) {
	dir := gitRepo(t)
	srv := mockllm.New(t).Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("analyze_files", `{"files":["parser.go"],"goal":"what Parse returns"}`)}},
		mockllm.Turn{Match: "Study parser.go", Blocks: []mockllm.Block{mockllm.Text(`{"summary":"The parser's entry point.","highlights":["Parse returns nothing yet."],"risks":[]}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"feat","scope":"parser","summary":"added Parse","details":[],"issue_refs":[]}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
	)
	commitAgentEnv(t, srv)
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse() {}\n")
	out, errOut, code := runCmd(t, "commit", "--no-changelog")
	if code != 0 || !strings.Contains(out, "\uf00c AnalyzeFiles\n  ⎿ files: parser.go\n    └ goal: what Parse returns\n") || !strings.HasSuffix(out, "Commit created.\n") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	sub := string(reqs[1].Body)
	for _, s := range []string{"claude-haiku-4-5", "+func Parse() {}", "what Parse returns", `"name":"read"`} {
		if !strings.Contains(sub, s) {
			t.Errorf("the subagent's request lacks %q", s)
		}
	}
	if strings.Contains(sub, `"name":"bash"`) || strings.Contains(sub, `"name":"edit"`) {
		t.Error("the subagent may change files")
	}
	if !strings.Contains(string(reqs[2].Body), "=== parser.go ===") || !strings.Contains(string(reqs[2].Body), "The parser's entry point.") {
		t.Error("the agent did not get the subagent's answer")
	}
}

// PI_COMMIT_TEST_FALLBACK skips the agent; PI_COMMIT_NO_FALLBACK makes an
// agent without a proposal an error instead.
func TestCommitAgentFallbackVariables(t *testing.T) {
	dir := gitRepo(t)
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Nothing to say.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Still nothing.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("No.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("No.")}})
	commitAgentEnv(t, srv)
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse() {}\n")
	t.Setenv("PI_COMMIT_NO_FALLBACK", "TRUE")
	out, errOut, code := runCmd(t, "commit", "--dry-run")
	if code != exitError || errOut != "Commit agent did not provide a proposal.\n" || strings.Contains(out, "Generated commit message") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	t.Setenv("PI_COMMIT_TEST_FALLBACK", "true")
	out, errOut, code = runCmd(t, "commit", "--dry-run")
	if code != 0 || !strings.HasSuffix(out, "● Forcing fallback commit generation...\nWarnings:\n- Commit generated using fallback due to agent failure\n\nGenerated commit message:\nrefactor: refactored parser.go\n\n- Updated parser.go\n") || len(srv.Requests()) != 4 {
		t.Fatalf("exit %d (%d requests): %q %q", code, len(srv.Requests()), out, errOut)
	}
}
