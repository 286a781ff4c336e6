package commitagent

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/tool"
)

// testRepo makes a repository with one commit and two staged files
// (a.go changed, b.md new).
func testRepo(t *testing.T) *commitgen.Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (scripts/setup.sh installs it)")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	put := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	put("a.go", "package a\n")
	git("add", "-A")
	git("commit", "-q", "-m", "feat(a): added a")
	put("a.go", "package a\n\nfunc A() {}\n")
	put("b.md", "# B\n")
	put("go.sum", "x v1 h1:abc\n")
	git("add", "-A")
	return &commitgen.Repo{Dir: dir, Env: env}
}

// call runs one of the tools by name with JSON arguments and decodes
// its answer.
func call(t *testing.T, tools []tool.Tool, name, args string) (map[string]any, string) {
	t.Helper()
	for _, tl := range tools {
		if tl.Definition().Name != name {
			continue
		}
		var a tool.Args
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			t.Fatal(err)
		}
		if problems := tool.Validate(tl.Definition().Parameters, map[string]any(a)); len(problems) > 0 {
			t.Fatalf("%s rejects its arguments: %v", name, problems)
		}
		res, err := tl.Execute(context.Background(), a, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var v map[string]any
		_ = json.Unmarshal([]byte(res.FirstText()), &v)
		return v, res.FirstText()
	}
	t.Fatalf("no tool %s", name)
	return nil, ""
}

func TestSplitCommitChecks(t *testing.T) {
	repo := testRepo(t)
	state := &State{}
	tools := Tools(repo, state, nil, "", nil)
	ov, _ := call(t, tools, "git_overview", `{}`)
	if files, _ := json.Marshal(ov["files"]); string(files) != `["a.go","b.md"]` {
		t.Fatalf("overview files %s", files)
	}
	if v, text := call(t, tools, "split_commit", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"added A"},{"changes":[{"path":"b.md","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`); v["valid"] != false || !strings.Contains(text, "staged file in no commit of the plan: go.sum") {
		t.Fatalf("a plan without the lock file was accepted: %s", text)
	}
	for _, tc := range []struct {
		name, plan, wantErr string
	}{
		{"a staged file left out", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"added A"},{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`, "staged file in no commit of the plan: b.md"},
		{"a file twice", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"added A"},{"changes":[{"path":"a.go","hunks":{"type":"all"}},{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`, "file in more than one commit: a.go"},
		{"a file not staged", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}},{"path":"c.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"added A"},{"changes":[{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`, "file not staged: c.go"},
		{"a cycle", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"added A","dependencies":[1]},{"changes":[{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b","dependencies":[0]}]}`, "cycle"},
		{"a bad selector", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"lines","start":5,"end":2}}],"type":"feat","scope":"a","summary":"added A"},{"changes":[{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`, "commit 1: invalid line range for a.go"},
		{"docs without docs", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented A"},{"changes":[{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`, "commit 1: a docs commit must change a documentation file"},
		{"self dependency", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"added A","dependencies":[0]},{"changes":[{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`, "cannot depend on itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, text := call(t, tools, "split_commit", tc.plan)
			if v["valid"] != false || !strings.Contains(text, tc.wantErr) {
				t.Fatalf("want an error %q: %s", tc.wantErr, text)
			}
			if state.Split() != nil {
				t.Fatal("a refused plan was kept")
			}
		})
	}
	v, text := call(t, tools, "split_commit", `{"commits":[{"changes":[{"path":"a.go","hunks":{"type":"all"}}],"type":"feat","scope":"a","summary":"feat(a): added A"},{"changes":[{"path":"b.md","hunks":{"type":"all"}},{"path":"go.sum","hunks":{"type":"all"}}],"type":"docs","scope":null,"summary":"documented b"}]}`)
	if v["valid"] != true || state.Split() == nil || state.Split().Commits[0].Message.String() != "feat(a): added A" {
		t.Fatalf("a good plan was refused: %s", text)
	}
}

func TestProposeCommitAndChangelog(t *testing.T) {
	repo := testRepo(t)
	state := &State{}
	tools := Tools(repo, state, []string{"CHANGELOG.md"}, "", nil)
	if v, text := call(t, tools, "propose_commit", `{"type":"feat","scope":"a","summary":"add A.","details":[],"issue_refs":[]}`); v["valid"] != false || !strings.Contains(text, "past tense") || !strings.Contains(text, "period") || state.Proposal() != nil {
		t.Fatalf("a bad message was accepted: %s", text)
	}
	if v, text := call(t, tools, "propose_commit", `{"type":"feat","scope":"a","summary":"added A","details":[{"text":"Added A for callers.","user_visible":true,"changelog_category":"Added"}],"issue_refs":["#1"]}`); v["valid"] != true || state.Proposal().Message.String() != "feat(a): added A\n\n- Added A for callers." {
		t.Fatalf("a good message was refused: %s", text)
	}
	if v, text := call(t, tools, "propose_changelog", `{"entries":[{"path":"docs/CHANGELOG.md","entries":{"Added":["A"]}}]}`); v["valid"] != false || !strings.Contains(text, "not a changelog of this change: docs/CHANGELOG.md") || !strings.Contains(text, "no entries given for CHANGELOG.md") {
		t.Fatalf("a wrong changelog was accepted: %s", text)
	}
	if v, text := call(t, tools, "propose_changelog", `{"entries":[{"path":"CHANGELOG.md","entries":{"Added":["Added A.","Added A."],"Misc":["x"]}}]}`); v["valid"] != false || !strings.Contains(text, "unknown category for CHANGELOG.md: Misc") {
		t.Fatalf("an unknown category was accepted: %s", text)
	}
	if v, text := call(t, tools, "propose_changelog", `{"entries":[{"path":"CHANGELOG.md","entries":{"Added":["Added A.","Added A"]},"deletions":{"Fixed":["Old entry"]}}]}`); v["valid"] != true {
		t.Fatalf("good entries were refused: %s", text)
	}
	got := state.Changelog()
	if len(got) != 1 || len(got[0].Entries["Added"]) != 1 || got[0].Entries["Added"][0] != "Added A" || got[0].Deletions["Fixed"][0] != "Old entry" {
		t.Fatalf("kept %+v", got)
	}
	if m := state.missing(true); len(m) != 0 {
		t.Fatalf("still missing %v", m)
	}
}

func TestGitHunkAndRecentCommits(t *testing.T) {
	repo := testRepo(t)
	tools := Tools(repo, &State{}, nil, "", nil)
	if _, text := call(t, tools, "git_hunk", `{"file":"a.go","hunks":[1]}`); !strings.HasPrefix(text, "@@ ") || !strings.Contains(text, "+func A() {}") {
		t.Fatalf("git_hunk: %q", text)
	}
	if _, text := call(t, tools, "git_hunk", `{"file":"a.go","hunks":[2]}`); text != "(no matching hunks)" {
		t.Fatalf("git_hunk of a missing hunk: %q", text)
	}
	v, text := call(t, tools, "recent_commits", `{"count":5}`)
	stats, _ := v["stats"].(map[string]any)
	if stats["scopeUsagePercent"] != float64(100) || !strings.Contains(text, `"a": 1`) || !strings.Contains(text, `"added": 1`) {
		t.Fatalf("recent_commits: %s", text)
	}
	if _, text := call(t, tools, "git_file_diff", `{"files":["b.md","a.go"]}`); !strings.HasPrefix(text, "=== a.go ===") || !strings.Contains(text, "=== b.md ===") {
		t.Fatalf("git_file_diff does not show code first: %q", text)
	}
}

// A split the user declines commits nothing; one they accept is made.
func TestSplitConfirm(t *testing.T) {
	repo := testRepo(t)
	plan := commitgen.SplitPlan{Commits: []commitgen.Group{
		{Message: commitgen.Message{Type: "feat", Scope: "a", Summary: "added A"}, Changes: []commitgen.FileChange{{Path: "a.go"}}},
		{Message: commitgen.Message{Type: "docs", Summary: "documented b"}, Changes: []commitgen.FileChange{{Path: "b.md"}, {Path: "go.sum"}}},
	}}
	var out, errb strings.Builder
	asked := 0
	answer := false
	c := &committer{o: Options{AgentOptions: AgentOptions{Repo: repo, Out: &out}, Err: &errb, Confirm: func(n int) bool { asked = n; return answer }}}
	if err := c.split(context.Background(), plan, nil); err != nil || asked != 2 || !strings.HasSuffix(out.String(), "Split commit aborted by user.\n") {
		t.Fatalf("%v, asked about %d: %q", err, asked, out.String())
	}
	if files, _ := repo.ChangedFiles(context.Background(), true); len(files) != 3 {
		t.Fatalf("declining changed the index: %v", files)
	}
	answer = true
	if err := c.split(context.Background(), plan, nil); err != nil || !strings.HasSuffix(out.String(), "Split commits created.\n") {
		t.Fatalf("%v: %q %q", err, out.String(), errb.String())
	}
	if files, _ := repo.ChangedFiles(context.Background(), true); len(files) != 0 {
		t.Fatalf("left staged: %v", files)
	}
}
