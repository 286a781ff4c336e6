package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

func writeAll(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The item's end-to-end check: a skill in the user's agent directory is
// listed in the system prompt, the model reads it through skill:// (and a
// file beside it), and the next request carries its text. A skill with
// broken front matter is reported with its file and the run goes on.
func TestPrintModeModelReadsSkill(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "skill://release"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "skill://release/checklist.md"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "skill://release/../../models.yml"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Tagged v1.2.0 after the checklist.")}},
	)
	skillDir := filepath.Join(r.AgentDir, "skills", "release")
	writeAll(t, filepath.Join(skillDir, "SKILL.md"), "---\nname: release\ndescription: Cut a release of this project\n---\n# Releasing\nRun the checklist in checklist.md, then tag vMAJOR.MINOR.PATCH.\n")
	writeAll(t, filepath.Join(skillDir, "checklist.md"), "1. CHANGELOG updated\n2. CI green\n")
	writeAll(t, filepath.Join(r.Project, ".claude", "skills", "bad", "SKILL.md"), "---\ndescription: [broken\n---\nstill usable\n")

	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "cut the release")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if stdout != "Tagged v1.2.0 after the checklist.\n" {
		t.Errorf("stdout %q", stdout)
	}
	if want := filepath.Join(".claude", "skills", "bad", "SKILL.md") + ": front matter is not valid YAML"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks the broken skill's warning %q:\n%s", want, stderr)
	}
	// The system prompt lists the skill.
	first := r.Srv.Requests()[0]
	if !strings.Contains(string(first.Body), "- release: Cut a release of this project") {
		t.Errorf("the system prompt does not list the skill:\n%s", first.Body)
	}
	// The skill's body came back as the read result, front matter and all.
	second := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(second, "Run the checklist in checklist.md") {
		t.Errorf("the second request lacks the skill's text:\n%s", second)
	}
	third := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(third, "CHANGELOG updated") {
		t.Errorf("the third request lacks the skill's checklist:\n%s", third)
	}
	// Reading out of the skill's directory is refused.
	fourth := agentrig.MustMarshal(t, r.RequestMessages(3))
	if !strings.Contains(fourth, `\"..\" is not allowed`) || strings.Contains(fourth, "MOCK_KEY") {
		t.Errorf("the escape attempt was not refused:\n%s", fourth)
	}
}

// --no-skills leaves skills out; --skills keeps the matching ones.
func TestSkillFlags(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("a")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("b")}},
	)
	writeAll(t, filepath.Join(r.AgentDir, "skills", "git-rebase", "SKILL.md"), "---\ndescription: Rebasing\n---\nx\n")
	writeAll(t, filepath.Join(r.AgentDir, "skills", "docker", "SKILL.md"), "---\ndescription: Containers\n---\ny\n")
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--no-skills", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--skills", "git-*", "hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	reqs := r.Srv.Requests()
	if b := string(reqs[0].Body); strings.Contains(b, "git-rebase") || strings.Contains(b, "docker") {
		t.Error("--no-skills still listed skills")
	}
	if b := string(reqs[1].Body); !strings.Contains(b, "git-rebase: Rebasing") || strings.Contains(b, "docker") {
		t.Error("--skills git-* did not keep exactly git-rebase")
	}
}

// In RPC mode a prompt naming a template or a skill is expanded by the
// session, like a typed one in the TUI.
func TestRPCPromptExpandsTemplateAndSkill(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("reviewed")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("released")}},
	)
	writeAll(t, filepath.Join(r.Project, ".gopi", "prompts", "review.md"), "---\ndescription: Review a file\n---\nReview $1, focusing on ${@:2}.\n")
	writeAll(t, filepath.Join(r.AgentDir, "skills", "release", "SKILL.md"), "---\ndescription: Cut a release\n---\nTag it after CI is green.\n")
	rr := startRPC(t, r)
	end := rr.Expect("agent_end")
	if resp := rr.Call("prompt", map[string]any{"message": "/review main.go error paths"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	end()
	end = rr.Expect("agent_end")
	if resp := rr.Call("prompt", map[string]any{"message": "/skill:release v2"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	end()
	if first := agentrig.MustMarshal(t, r.RequestMessages(0)); !strings.Contains(first, "Review main.go, focusing on error paths.") {
		t.Errorf("template not expanded:\n%s", first)
	}
	if second := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(second, "Tag it after CI is green.") || !strings.Contains(second, "User: v2") {
		t.Errorf("skill not sent:\n%s", second)
	}
}
