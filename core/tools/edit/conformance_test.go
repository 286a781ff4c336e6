package edit

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestApplyPatchConformance runs every testdata/apply_patch case through
// Codex's own apply_patch as well (when GOPI_CODEX_APPLY_PATCH names its
// binary, e.g. a symlink called apply_patch to the codex executable that
// bench/edit.sh installs) and requires the same files afterwards and the
// same success or failure. Messages are not compared: Codex prints
// absolute paths and, for a move, the destination, where gopi names the
// paths as written and, for a move, both of them. Cases
// named deviation_* document deliberate departures and are not compared.
func TestApplyPatchConformance(t *testing.T) {
	t.Parallel()
	codex := os.Getenv("GOPI_CODEX_APPLY_PATCH")
	if codex == "" {
		t.Skip("set GOPI_CODEX_APPLY_PATCH to Codex's apply_patch binary to compare with it")
	}
	cases, _ := filepath.Glob("testdata/apply_patch/*.txtar")
	for _, file := range cases {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		if strings.HasPrefix(name, "deviation_") {
			continue // documented departures from the reference
		}
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var input string
			for _, f := range ar.Files {
				switch {
				case f.Name == "input":
					input = string(f.Data)
				case strings.HasPrefix(f.Name, "want/") || f.Name == "settings":
				default:
					p := filepath.Join(dir, "codex", f.Name)
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, f.Data, 0o644)
				}
			}
			cmd := exec.Command(codex)
			cmd.Dir = filepath.Join(dir, "codex")
			cmd.Stdin = strings.NewReader(input)
			codexFailed := cmd.Run() != nil

			want := map[string]string{}
			gopiFailed := false
			for _, f := range ar.Files {
				if name, ok := strings.CutPrefix(f.Name, "want/"); ok {
					if name == "result" {
						gopiFailed = bytes.HasPrefix(f.Data, []byte("ERROR\n"))
					} else if name != "diff" {
						want[name] = string(f.Data)
					}
				}
			}
			if codexFailed != gopiFailed {
				t.Errorf("codex failed: %v, gopi failed: %v", codexFailed, gopiFailed)
			}
			got := map[string]string{}
			root := filepath.Join(dir, "codex")
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(root, p)
					data, _ := os.ReadFile(p)
					got[filepath.ToSlash(rel)] = string(data)
				}
				return nil
			})
			for name, w := range want {
				if got[name] != w {
					t.Errorf("%s: codex wrote %q, gopi %q", name, got[name], w)
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok {
					t.Errorf("%s: codex left it, gopi did not", name)
				}
			}
		})
	}
}
