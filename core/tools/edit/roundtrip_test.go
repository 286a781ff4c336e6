package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/hashedit"
	"github.com/gopi-agent/gopi/core/tools/read"
)

func call(t *testing.T, tl tool.Tool, args map[string]any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// anchorOf finds the anchor of the row showing text in read or preview
// output.
func anchorOf(t *testing.T, out, text string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^[ +*]?(\d+[a-z]{2})\|` + regexp.QuoteMeta(text) + `$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row for %q in:\n%s", text, out)
	}
	return m[1]
}

// TestReadEditRoundTrip: anchors from the read tool edit the file; after
// an outside change the stale anchors are recovered through the read
// cache; the preview's anchors work for the next edit without a read.
func TestReadEditRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	path := filepath.Join(dir, "f.txt")
	os.WriteFile(path, []byte("a\nb\nc\nd\ne\nf\ng\n"), 0o600)
	rd, ed := read.New(env, nil), New(env)

	out := call(t, rd, map[string]any{"path": "f.txt"}).FirstText()
	anchorD := anchorOf(t, out, "d")

	// Someone else inserts two lines at the top.
	os.WriteFile(path, []byte("x\ny\na\nb\nc\nd\ne\nf\ng\n"), 0o600)
	res := call(t, ed, map[string]any{"input": "@@ f.txt\n= " + anchorD + ".." + anchorD + "\n~D\n"})
	if res.IsError || !strings.Contains(res.FirstText(), hashedit.RecoveredWarning) {
		t.Fatalf("recovery: %s", res.FirstText())
	}
	if got, _ := os.ReadFile(path); string(got) != "x\ny\na\nb\nc\nD\ne\nf\ng\n" {
		t.Fatalf("file: %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode not kept: %v", fi.Mode())
	}

	// The preview's anchors are current.
	anchorE := anchorOf(t, res.FirstText(), "e")
	res = call(t, ed, map[string]any{"input": "@@ f.txt\n- " + anchorE + ".." + anchorE + "\n"})
	if res.IsError {
		t.Fatalf("second edit: %s", res.FirstText())
	}
	if got, _ := os.ReadFile(path); string(got) != "x\ny\na\nb\nc\nD\nf\ng\n" {
		t.Fatalf("file: %q", got)
	}
	// A stale anchor whose own line changed is refused, file untouched.
	os.WriteFile(path, []byte("x\ny\na\nb\nc\nDD\nf\ng\n"), 0o600)
	res = call(t, ed, map[string]any{"input": "@@ f.txt\n= " + anchorOf(t, out, "d") + ".." + anchorOf(t, out, "d") + "\n~Q\n"})
	if !res.IsError || !strings.Contains(res.FirstText(), "*4") {
		t.Fatalf("expected a mismatch: %s", res.FirstText())
	}
	if got, _ := os.ReadFile(path); string(got) != "x\ny\na\nb\nc\nDD\nf\ng\n" {
		t.Fatalf("file changed: %q", got)
	}
}

func TestDefinitions(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	for _, m := range []tool.EditMode{tool.EditHashline, tool.EditReplace, tool.EditPatch, tool.EditApplyPatch, tool.EditVim} {
		def := NewMode(env, m).Definition()
		if def.Name != "edit" || def.Concurrency != tool.Exclusive || !def.NonAbortable || def.Parameters == nil {
			t.Errorf("%s: %+v", m, def)
		}
	}
	for _, m := range []tool.EditMode{tool.EditPatch, tool.EditVim} {
		if NewMode(env, m).Mode() != m {
			t.Errorf("%s must be implemented", m)
		}
	}
	if NewMode(env, tool.EditAtom).Mode() != tool.EditHashline {
		t.Error("unimplemented modes must fall back to hashline")
	}
	atomEnv := tool.NewEnv(t.TempDir())
	atomEnv.Settings.EditMode = tool.EditAtom
	New(atomEnv)
	if atomEnv.Settings.EditMode != tool.EditHashline {
		t.Error("the env's edit mode must follow the fallback, for read's anchors")
	}
	cfg, err := config.Load(config.LoadOptions{Cwd: t.TempDir(), Home: t.TempDir(), NoFiles: true,
		Environ: []string{config.EnvEditVariant + "=apply_patch"}})
	if err != nil {
		t.Fatal(err)
	}
	patchEnv := tool.NewEnv(t.TempDir())
	patchEnv.Settings = tool.SettingsFrom(cfg)
	if New(patchEnv).(*Tool).Mode() != tool.EditApplyPatch {
		t.Error("PI_EDIT_VARIANT is not honoured")
	}
	sepEnv := tool.NewEnv(t.TempDir())
	sepEnv.Settings.EditSeparator = "»"
	if d := New(sepEnv).Definition().Description; !strings.Contains(d, `"»text"`) {
		t.Errorf("the description does not use the configured separator:\n%s", d)
	}
	path := filepath.Join(sepEnv.Cwd, "f.txt")
	os.WriteFile(path, []byte("a\n"), 0o644)
	res := call(t, New(sepEnv), map[string]any{"input": "@@ f.txt\n+ EOF\n»b\n"})
	if got, _ := os.ReadFile(path); res.IsError || string(got) != "a\nb\n" {
		t.Errorf("edit with separator »: %s, file %q", res.FirstText(), got)
	}
}

func TestEditThroughSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	os.WriteFile(filepath.Join(dir, "real.txt"), []byte("one\n"), 0o644)
	if err := os.Symlink("real.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Skip(err)
	}
	res := call(t, NewMode(env, tool.EditReplace), map[string]any{"path": "link.txt", "edits": []any{map[string]any{"old_text": "one", "new_text": "two"}}})
	if res.IsError {
		t.Fatal(res.FirstText())
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "real.txt")); string(got) != "two\n" {
		t.Fatalf("target: %q", got)
	}
}
