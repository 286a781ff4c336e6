package agentsession

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// disabledProviders and disabledExtensions (written by /extensions)
// leave sources and single rules, templates and commands out, as omp's
// discovery does; gopi's own directories stay.
func TestResourcesTurnedOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "go.md"), "---\ndescription: Go conventions\n---\nGo text.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "rules", "tabs.md"), "---\ndescription: Tabs\n---\nTabs.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "prompts", "review.md"), "Review this.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "commands", "ship.md"), "Ship it.\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "prompts", "keep.md"), "Keep me.\n")
	writeFile(t, filepath.Join(f.project, ".claude", "commands", "hi.md"), "Say hi.\n")
	writeFile(t, filepath.Join(f.project, ".claude", "skills", "cl", "SKILL.md"), "---\ndescription: Claude skill\n---\nx\n")
	writeFile(t, filepath.Join(f.project, ".gopi", "skills", "own", "SKILL.md"), "---\ndescription: Own skill\n---\nx\n")
	writeFile(t, filepath.Join(f.project, "AGENTS.md"), "Project context to leave out.\n")
	writeFile(t, filepath.Join(f.home, ".gopi", "agent", "AGENTS.md"), "User context to keep.\n")
	writeFile(t, filepath.Join(f.home, ".gopi", "agent", "config.yml"),
		"disabledProviders: [claude]\ndisabledExtensions: [\"rule:go\", \"prompt:review\", \"slash-command:ship\", \"mcp:srv\", \"context-file:project:AGENTS.md\"]\n")
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	res := s.Resources()
	var rules, tmpls, skills []string
	for _, r := range res.Rules().All {
		rules = append(rules, r.Name)
	}
	for _, tm := range res.Templates() {
		tmpls = append(tmpls, tm.Name)
	}
	for _, sk := range res.Skills() {
		skills = append(skills, sk.Name)
	}
	if !slices.Equal(rules, []string{"tabs"}) || !slices.Equal(tmpls, []string{"keep"}) || !slices.Equal(skills, []string{"own"}) {
		t.Errorf("rules %v, templates %v, skills %v; want [tabs] [keep] [own]", rules, tmpls, skills)
	}
	if sp := s.SystemPrompt(); strings.Contains(sp, "Project context to leave out.") || !strings.Contains(sp, "User context to keep.") {
		t.Errorf("the context files turned off:\n%s", sp)
	}
	if got := offIn(cfg.Settings).mcpServers([]string{"other"}); !slices.Equal(got, []string{"other", "srv"}) {
		t.Errorf("MCP servers off: %v", got)
	}
}
