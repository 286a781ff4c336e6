package notebook

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Text gives the view omp 14.9.9 gives, run with bun from the
// omp-reference install (skipped without it), for the notebooks of the
// format tests and an empty-cell one (omp fails on a null source, so
// there is none).
func TestViewAgainstOmp(t *testing.T) {
	home, _ := os.UserHomeDir()
	ref := filepath.Join(home, ".cache", "omp-reference")
	bun := filepath.Join(ref, "node_modules", ".bin", "bun")
	src := filepath.Join(ref, "node_modules", "@oh-my-pi", "pi-coding-agent", "src", "edit", "notebook.ts")
	for _, p := range []string{bun, src} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("omp 14.9.9 is not installed at %s (the shared omp-reference.sh installs it): not compared", ref)
		}
	}
	dir := t.TempDir()
	notebooks := map[string]string{
		"empty-cells": `{"cells": [{"cell_type": "code", "source": ""}, {"cell_type": "raw"}, {"cell_type": "markdown", "source": "x\n"}, {"cell_type": "code", "source": ["a\n", "", "b"]}, {"cell_type": "markdown", "source": ["\n"]}, {"cell_type": "code", "source": []}]}`,
	}
	for name, nb := range formats {
		notebooks[name] = nb
	}
	var args []string
	for name, nb := range notebooks {
		p := filepath.Join(dir, name+".ipynb")
		if err := os.WriteFile(p, []byte(nb), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	cmd := exec.CommandContext(t.Context(), bun, append([]string{"compare-omp-notebook.ts"}, args...)...)
	cmd.Dir = "testdata"
	cmd.Env = append(os.Environ(), "OMP_REFERENCE_DIR="+ref)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bun compare-omp-notebook.ts: %v\n%s", err, out)
	}
	var omp map[string]string
	if err := json.Unmarshal(out, &omp); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, p := range args {
		data, _ := os.ReadFile(p)
		got, err := Text(data)
		if err != nil || got != omp[p] {
			t.Errorf("%s: gopi %q (%v), omp %q", filepath.Base(p), got, err, omp[p])
		}
	}
}
