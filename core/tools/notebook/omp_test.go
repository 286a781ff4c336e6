package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ompReference returns bun and the omp-reference directory, skipping the
// test when omp 14.9.9 is not installed there.
func ompReference(t *testing.T) (bun, ref string) {
	t.Helper()
	home, _ := os.UserHomeDir()
	ref = filepath.Join(home, ".cache", "omp-reference")
	bun = filepath.Join(ref, "node_modules", ".bin", "bun")
	src := filepath.Join(ref, "node_modules", "@oh-my-pi", "pi-coding-agent", "src", "edit", "notebook.ts")
	for _, p := range []string{bun, src} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("omp 14.9.9 is not installed at %s (the shared omp-reference.sh installs it): not compared", ref)
		}
	}
	return bun, ref
}

// runOmp runs a compare-omp-*.ts script of testdata with bun.
func runOmp(t *testing.T, stdin []byte, script string, args ...string) []byte {
	t.Helper()
	bun, ref := ompReference(t)
	cmd := exec.CommandContext(t.Context(), bun, append([]string{script}, args...)...)
	cmd.Dir = "testdata"
	cmd.Env = append(os.Environ(), "OMP_REFERENCE_DIR="+ref)
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("bun %s: %v\n%s", script, err, ee.Stderr)
		}
		t.Fatalf("bun %s: %v", script, err)
	}
	return out
}

// Text gives the view omp 14.9.9 gives, run with bun from the
// omp-reference install (skipped without it), for the notebooks of the
// format tests and an empty-cell one (omp fails on a null source, so
// there is none).
func TestViewAgainstOmp(t *testing.T) {
	ompReference(t)
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
	out := runOmp(t, nil, "compare-omp-notebook.ts", args...)
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

// Apply makes the cells omp 14.9.9's applyNotebookEditableText makes
// (run with bun; skipped without it) for edits of every kind omp allows:
// the same cells in the same order with the same members and values. The
// ids gopi gives new cells (omp gives none) are left out of the
// comparison, and so is the file's formatting, which omp does not keep.
func TestApplyAgainstOmp(t *testing.T) {
	ompReference(t)
	nb := formats["jupyter"]
	d, err := Parse([]byte(nb))
	if err != nil {
		t.Fatal(err)
	}
	view := d.Text()
	texts := []string{
		view,
		strings.Replace(view, "print(1)", "print(2)\nprint(3)\n", 1),
		strings.Replace(view, "# %% [code] cell:1", "# %% [code]\nimport os\n# %% [code] cell:1", 1),
		view[strings.Index(view, "# %% [code] cell:1"):],
		"# %% [code] cell:1\nprint(1)\n# %% [markdown] cell:0\n# Données\ntext",
		"# %% [code] cell:0\n# Données\ntext\n# %% [raw] cell:1\nprint(1)",
		view + "\n# %% [code] cell:1\nprint(1)",
		"",
		view + "\n# %% [markdown]\nnew\n",
		"# %% [raw]",
	}
	type input struct {
		Notebook string `json:"notebook"`
		Text     string `json:"text"`
	}
	var in []input
	for _, text := range texts {
		in = append(in, input{nb, text})
	}
	raw, _ := json.Marshal(in)
	var omp []json.RawMessage
	if err := json.Unmarshal(runOmp(t, raw, "compare-omp-apply.ts"), &omp); err != nil {
		t.Fatal(err)
	}
	oldIDs := d.existingIDs()
	cellsOf := func(data []byte) []any {
		var v struct {
			Cells []map[string]any `json:"cells"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
		var out []any
		for _, c := range v.Cells {
			if id, _ := c["id"].(string); !oldIDs[id] {
				delete(c, "id")
			}
			out = append(out, c)
		}
		return out
	}
	for i, text := range texts {
		ours, err := d.Apply(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		var ompText string
		if err := json.Unmarshal(omp[i], &ompText); err != nil {
			t.Errorf("%q: omp failed: %s", text, omp[i])
			continue
		}
		if got, want := cellsOf(ours), cellsOf([]byte(ompText)); !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%q:\ngopi %s\nomp  %s", text, g, w)
		}
	}
}
