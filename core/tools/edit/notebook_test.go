package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/notebook"
	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/gopi-agent/gopi/internal/nbformattest"
)

// Every notebook an edit golden leaves behind (testdata/*/notebook_*.txtar,
// want/*.ipynb) opens in Python's json and nbformat and validates against
// its schema, as Jupyter would open it.
func TestNotebookGoldensValidate(t *testing.T) {
	t.Parallel()
	cases, _ := filepath.Glob("testdata/*/notebook_*.txtar")
	if len(cases) == 0 {
		t.Fatal("no notebook golden cases")
	}
	dir := t.TempDir()
	var files []string
	for _, file := range cases {
		ar := golden.ReadArchive(t, file)
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want/") || !isNotebook(f.Name) || !strings.HasPrefix(strings.TrimSpace(string(f.Data)), "{\n") {
				continue
			}
			name := strings.NewReplacer("/", "_", ".txtar", "").Replace(file + "_" + strings.TrimPrefix(f.Name, "want/"))
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	if len(files) < 10 {
		t.Fatalf("only %d notebooks to check", len(files))
	}
	nbformattest.Validate(t, files...)
}

// After an edit that adds a cell, the result's anchors are those of the
// notebook's view as read shows it (later cells renumbered), so the next
// edit can use them.
func TestNotebookPreviewAnchorsStayValid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nb := `{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, "source": ["a = 1"]}, {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, "source": ["b = 2"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`
	path := filepath.Join(dir, "nb.ipynb")
	if err := os.WriteFile(path, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	tl := NewMode(env, tool.EditHashline)
	run := func(input string) string {
		t.Helper()
		raw, _ := json.Marshal(map[string]string{"input": input})
		res, err := tool.Run(context.Background(), tl, raw, nil)
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %s", input, err, res.FirstText())
		}
		return res.FirstText()
	}
	// The view: 1 "# %% [code] cell:0", 2 "a = 1", 3 "# %% [code] cell:1", 4 "b = 2".
	out := run("@@ nb.ipynb\n< " + hashline.Anchor(3, "# %% [code] cell:1") + "\n~# %% [markdown]\n~notes\n")
	data, _ := os.ReadFile(path)
	view, err := notebook.Text(data)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(view, "\n")
	if lines[2] != "# %% [markdown] cell:1" || lines[4] != "# %% [code] cell:2" {
		t.Fatalf("view after the edit:\n%s", view)
	}
	for n, want := range map[int]string{3: lines[2], 5: lines[4]} {
		if a := hashline.Anchor(n, want); !strings.Contains(out, a+"|"+want) {
			t.Errorf("the result does not show %s|%s as read will:\n%s", a, want, out)
		}
	}
	run("@@ nb.ipynb\n= " + hashline.Anchor(6, "b = 2") + ".." + hashline.Anchor(6, "b = 2") + "\n~b = 3\n")
	data, _ = os.ReadFile(path)
	if view, _ := notebook.Text(data); !strings.HasSuffix(view, "# %% [code] cell:2\nb = 3") {
		t.Errorf("second edit: %s", view)
	}
}
