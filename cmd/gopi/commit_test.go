package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// gitRepo makes a repository with one commit in a temporary directory,
// makes it the working directory and returns it.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (scripts/setup.sh installs it)")
	}
	dir := t.TempDir()
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.DevNull} {
		t.Setenv(k, v)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "parser.go"), "package parser\n")
	git("add", "-A")
	git("commit", "-q", "-m", "feat(parser): added the parser")
	t.Chdir(dir)
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// gopi commit --legacy sends the staged diff to the smol model, sends a message
// that breaks a convention back with the problem, and commits the second.
func TestCommitThroughSmolModel(t *testing.T) {
	dir := gitRepo(t)
	srv := mockllm.New(t).Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"fix","scope":"parser","summary":"fix: handled empty input in Parse."}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"fix","scope":"parser","summary":"handled empty input in Parse","details":["Returned an error instead of panicking on an empty file."]}`)}},
	)
	agentDir := isolateAgentEnv(t, mockConfig(srv.URL()))
	write(t, filepath.Join(agentDir, "config.yml"), "modelRoles:\n  smol: anthropic/claude-haiku-4-5\n")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\nfunc Parse(s string) error { return nil }\n")
	write(t, filepath.Join(dir, "go.sum"), "example.com/x v1.0.0 h1:abc\n")

	out, errOut, code := runCmd(t, "commit", "--legacy", "-c", "empty files crashed")
	if code != 0 || out != "No staged changes detected, staging all changes...\nCommit created.\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	want := "fix(parser): handled empty input in Parse\n\n- Returned an error instead of panicking on an empty file.\n"
	if got := gitOut(t, dir, "log", "-1", "--format=%B"); strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Fatalf("commit message %q, want %q", got, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := string(reqs[0].Body)
	for _, s := range []string{"claude-haiku-4-5", "propose_commit", "func Parse(s string) error", "empty files crashed", "feat(parser): added the parser", "go.sum"} {
		if !strings.Contains(first, s) {
			t.Errorf("first request lacks %q: %s", s, first)
		}
	}
	if strings.Contains(first, "h1:abc") {
		t.Errorf("the lock file's diff was sent: %s", first)
	}
	if second := string(reqs[1].Body); !strings.Contains(second, "the summary ends with a period") {
		t.Errorf("second request does not name the problem: %s", second)
	}
}

// --dry-run prints the message and commits nothing; -m picks the model.
func TestCommitDryRun(t *testing.T) {
	dir := gitRepo(t)
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(`{"type":"docs","summary":"documented Parse"}`)}})
	isolateAgentEnv(t, mockConfig(srv.URL()))
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	write(t, filepath.Join(dir, "README"), "Parse parses.\n")
	if out := gitOut(t, dir, "add", "README"); out != "" {
		t.Fatal(out)
	}
	// From a subdirectory: git names the files from the top.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	out, errOut, code := runCmd(t, "commit", "--legacy", "--dry-run", "-m", "anthropic/claude-sonnet-4-5")
	if code != 0 || out != "\nGenerated commit message:\ndocs: documented Parse\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if n := strings.Count(gitOut(t, dir, "log", "--format=%s"), "\n"); n != 1 {
		t.Fatalf("%d commits", n)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, "claude-sonnet-4-5") || !strings.Contains(body, "+Parse parses.") {
		t.Fatalf("-m not used or the diff missing: %s", body)
	}
}

// Outside a repository the error is git's, in one line.
func TestCommitOutsideRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (scripts/setup.sh installs it)")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	isolateAgentEnv(t, "")
	_, errOut, code := runCmd(t, "commit")
	if code != exitError || !strings.HasPrefix(errOut, "gopi commit: "+dir+" is not in a git working tree; run gopi commit inside a repository (git rev-parse: fatal: not a git repository") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("exit %d: %q", code, errOut)
	}
}

// --push pushes the new commit to the branch's upstream.
func TestCommitPush(t *testing.T) {
	dir := gitRepo(t)
	remote := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "--bare", remote}, {"-C", dir, "remote", "add", "origin", remote}, {"-C", dir, "push", "-q", "-u", "origin", "main"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"chore","summary":"removed the parser stub"}`)}})
	isolateAgentEnv(t, mockConfig(srv.URL()))
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	if err := os.Remove(filepath.Join(dir, "parser.go")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, "commit", "--legacy", "--push")
	if code != 0 || !strings.HasSuffix(out, "Commit created.\nPushed to remote.\n") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if got := gitOut(t, remote, "log", "-1", "--format=%s", "main"); got != "chore: removed the parser stub\n" {
		t.Fatalf("remote has %q", got)
	}
}

// The nearest CHANGELOG.md gets the model's entries under [Unreleased]
// and is committed with the change; --no-changelog leaves it alone.
func TestCommitChangelog(t *testing.T) {
	dir := gitRepo(t)
	write(t, filepath.Join(dir, "CHANGELOG.md"), "# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n\n### Added\n- The parser\n")
	gitOut(t, dir, "add", "CHANGELOG.md")
	gitOut(t, dir, "commit", "-q", "-m", "docs: added a changelog")
	srv := mockllm.New(t).Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_changelog", `{"entries":{"Fixed":["Fixed a crash on empty input."]}}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"fix","scope":"parser","summary":"handled empty input"}`)}},
	)
	isolateAgentEnv(t, mockConfig(srv.URL()))
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	write(t, filepath.Join(dir, "parser.go"), "package parser\n\n// Parse parses.\nfunc Parse(s string) error { return nil }\n")
	out, errOut, code := runCmd(t, "commit", "--legacy")
	if code != 0 || !strings.Contains(out, "Updated "+filepath.Join(dir, "CHANGELOG.md")+"\n") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if got := gitOut(t, dir, "show", "HEAD:CHANGELOG.md"); got != "# Changelog\n\n## [Unreleased]\n\n### Fixed\n- Fixed a crash on empty input\n\n## [0.1.0]\n\n### Added\n- The parser\n" {
		t.Fatalf("committed changelog %q", got)
	}
	if !strings.Contains(string(srv.Requests()[0].Body), "func Parse(s string) error") {
		t.Fatal("the changelog request lacks the diff")
	}
	if st := gitOut(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("left behind: %q", st)
	}
}

// --legacy with four files or more reads each file's diff on its own
// with the smol model and writes the message from what it found.
func TestCommitLegacyMapReduce(t *testing.T) {
	dir := gitRepo(t)
	names := []string{"Alpha", "Beta", "Gamma", "Delta"}
	turns := []mockllm.Turn{{Match: "propose_commit", Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"feat","scope":"parser","summary":"added four parsers"}`)}}}
	for _, n := range names {
		write(t, filepath.Join(dir, strings.ToLower(n)+".go"), "package parser\n\nfunc "+n+"() {}\n")
		turns = append(turns, mockllm.Turn{Match: "func " + n, Blocks: []mockllm.Block{mockllm.Text("- added " + n + "\n")}})
	}
	srv := mockllm.New(t).Script(turns...)
	agentDir := isolateAgentEnv(t, mockConfig(srv.URL()))
	write(t, filepath.Join(agentDir, "config.yml"), "modelRoles:\n  smol: anthropic/claude-haiku-4-5\n  commit: anthropic/claude-sonnet-4-5\n")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	out, errOut, code := runCmd(t, "commit", "--legacy", "--no-changelog")
	if code != 0 || out != "No staged changes detected, staging all changes...\nLarge diff detected, using map-reduce analysis...\nCommit created.\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		body := string(r.Body)
		if strings.Contains(body, "propose_commit") {
			if !strings.Contains(body, "claude-sonnet-4-5") || !strings.Contains(body, `- gamma.go: added Gamma`) || strings.Contains(body, "func Gamma") {
				t.Errorf("the message request is not written from the observations: %s", body)
			}
		} else if !strings.Contains(body, "claude-haiku-4-5") || !strings.Contains(body, "OTHER FILES IN THIS CHANGE") {
			t.Errorf("a file request is not the smol model's with the other files named: %s", body)
		}
	}
	t.Setenv("PI_COMMIT_MAP_REDUCE", "false")
	write(t, filepath.Join(dir, "alpha.go"), "package parser\n\nfunc Alpha() int { return 1 }\n")
	write(t, filepath.Join(dir, "beta.go"), "package parser\n\nfunc Beta() int { return 1 }\n")
	write(t, filepath.Join(dir, "gamma.go"), "package parser\n\nfunc Gamma() int { return 1 }\n")
	write(t, filepath.Join(dir, "delta.go"), "package parser\n\nfunc Delta() int { return 1 }\n")
	srv.Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("propose_commit", `{"type":"fix","summary":"returned one"}`)}})
	if out, errOut, code := runCmd(t, "commit", "--legacy", "--no-changelog"); code != 0 || strings.Contains(out, "map-reduce") {
		t.Fatalf("PI_COMMIT_MAP_REDUCE=false: exit %d: %q %q", code, out, errOut)
	}
}
