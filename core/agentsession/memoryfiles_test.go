package agentsession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// memory:// reads the project's memory files: the summary from gopi's
// agent directory, a file only omp's has from there; bash gets the file
// path; ".." is refused.
func TestMemoryURLs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	roots := config.MemoryRoots(f.config().Dirs)
	write := func(root, rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(roots[0], "memory_summary.md", "gopi summary: tests run with make test\n")
	write(roots[1], "memory_summary.md", "omp summary, shadowed\n")
	write(roots[1], "skills/deploy.md", "omp's deploy notes\n")
	f.script.add(
		callTool("c1", "read", `{"path":"memory://root"}`),
		callTool("c2", "read", `{"path":"memory://root/skills/deploy.md"}`),
		callTool("c3", "bash", `{"command":"cat memory://root/skills/deploy.md"}`),
		callTool("c4", "read", `{"path":"memory://root/../../x"}`),
		say("done"),
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	got := toolResultTexts(reqs[len(reqs)-1].Messages)
	want := []string{"gopi summary: tests run with make test", "omp's deploy notes", "omp's deploy notes", `".." is not allowed`}
	if len(got) != len(want) {
		t.Fatalf("results = %q", got)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("result %d = %q; want %q", i, got[i], want[i])
		}
	}
}
