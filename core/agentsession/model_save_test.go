package agentsession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// A model chosen in one session (Set, Cycle) and a thinking level chosen
// as the default are saved in config.yml and pick the model and level of
// the next new session, as omp's modelRoles.default does.
func TestChosenModelIsTheNextSessionsDefault(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	cfg := f.config()
	reg := f.registry(cfg)
	s := f.open(Options{Config: cfg, Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Model().Set(f.model(reg, "anthropic/claude-opus-4-1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Model().SetThinkingDefault(ai.ThinkingHigh); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(filepath.Join(cfg.AgentDir, "config.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "default: anthropic/claude-opus-4-1") || !strings.Contains(string(b), "defaultThinkingLevel: high") {
		t.Fatalf("config.yml:\n%s", b)
	}

	// A new process: the configuration is read again.
	s2 := f.open(Options{NoTitle: true})
	if m := s2.Agent().Model(); m == nil || m.ID != "claude-opus-4-1" || s2.Agent().Thinking() != ai.ThinkingHigh {
		t.Fatalf("new session: %v %s", m, s2.Agent().Thinking())
	}
	// A level saved after the colon is kept when the model changes again.
	if err := s2.Config().Settings.Set("modelRoles.default", "anthropic/claude-opus-4-1:low"); err != nil {
		t.Fatal(err)
	}
	if err := s2.Model().Set(f.model(reg, "anthropic/claude-sonnet-4-5")); err != nil {
		t.Fatal(err)
	}
	if got := s2.Config().Settings.ModelRole("default"); got != "anthropic/claude-sonnet-4-5:low" {
		t.Fatalf("modelRoles.default = %q", got)
	}
}
