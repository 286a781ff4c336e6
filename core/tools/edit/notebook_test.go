package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
