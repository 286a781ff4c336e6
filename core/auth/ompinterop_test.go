package auth

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestOMPReadsGopiDB runs omp 14.9.9's own storage code on an agent.db
// gopi wrote. It needs the omp reference install (see
// testdata/omp/read-with-omp.ts): OMP names its @oh-my-pi directory and
// OMP_BUN its bun; without them the test is skipped.
func TestOMPReadsGopiDB(t *testing.T) {
	ompDir, bun := os.Getenv("OMP"), os.Getenv("OMP_BUN")
	if ompDir == "" || bun == "" {
		t.Skip("set OMP and OMP_BUN to run omp's code on gopi's agent.db")
	}
	path := filepath.Join(t.TempDir(), DBFile)
	s := New(Options{Path: path})
	if err := s.Save(context.Background(), "openai", APIKey("sk-from-gopi"), false); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/omp/read-with-omp.ts")
	cmd := exec.Command(bun, script, path)
	cmd.Env = append(os.Environ(), "OMP="+ompDir)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "openai api_key 12\n" {
		t.Fatalf("%s %v", out, err)
	}
}
