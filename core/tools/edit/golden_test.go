package edit

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/notebook"
	"github.com/gopi-agent/gopi/internal/golden"
)

// TestGolden runs every testdata/<mode>/*.txtar case. A case holds:
//
//   - files to create before the call (any section not named below);
//   - seen/<path>: what the model saw of <path> (recorded in the read
//     cache as a full read); anchors in the input are taken from it;
//   - symlink/<path>: a symbolic link at <path> pointing to the section's
//     text (trimmed), which need not exist; links are not compared under
//     want/;
//   - settings: "key=value" lines (autodrop=true);
//   - input: the hashline or apply_patch input, or args.json: raw
//     arguments (replace mode, or to test schema validation);
//   - want/result: the result text, prefixed "ERROR\n" for an error result;
//   - want/diff: optional, the unified diff in the details;
//   - want/<path>: every file that exists after the call, with its content.
//
// A file section (before or after) that ends with the line
// "\ No newline at end of file" stands for its text without that line and
// without the line break before it, as in a unified diff.
//
// In input and args.json, {{path:N}} stands for the anchor of line N of
// <path> as seen (seen/<path> when present, else the file itself; for a
// notebook, its text view).
func TestGolden(t *testing.T) {
	t.Parallel()
	cases, _ := filepath.Glob("testdata/*/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range cases {
		name := filepath.Base(filepath.Dir(file)) + "/" + strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) { runGolden(t, file) })
	}
}

// noEOL is the line a golden file section ends with when the file does
// not end with a line break.
const noEOL = "\\ No newline at end of file\n"

// withoutNoEOL is the file a section stands for (see noEOL).
func withoutNoEOL(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"+noEOL); ok {
		return t
	}
	return s
}

// withNoEOL is the section text for a file's content (see noEOL).
func withNoEOL(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n" + noEOL
}

var anchorRef = regexp.MustCompile(`\{\{([^}:]+):(\d+)\}\}`)

func runGolden(t *testing.T, file string) {
	ar := golden.ReadArchive(t, file)
	mode, ok := tool.ParseEditMode(filepath.Base(filepath.Dir(file)))
	if !ok {
		t.Fatalf("directory %s is not an edit mode", filepath.Dir(file))
	}
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	env.Settings.EditMode = mode
	sections := map[string]string{}
	seen := map[string]string{}
	current := map[string]string{}
	for _, f := range ar.Files {
		switch {
		case f.Name == "input" || f.Name == "args.json" || f.Name == "settings" || strings.HasPrefix(f.Name, "want/"):
			sections[f.Name] = string(f.Data)
		case strings.HasPrefix(f.Name, "seen/"):
			seen[strings.TrimPrefix(f.Name, "seen/")] = string(f.Data)
		case strings.HasPrefix(f.Name, "symlink/"):
			path := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(f.Name, "symlink/")))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(strings.TrimSpace(string(f.Data)), path); err != nil {
				t.Skipf("cannot create symlinks here: %v", err)
			}
		default:
			current[f.Name] = string(f.Data)
			path := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(withoutNoEOL(string(f.Data))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, kv := range strings.Fields(sections["settings"]) {
		switch kv {
		case "autodrop=true":
			env.Settings.HashlineAutoDropPureInsertDuplicates = true
		default:
			t.Fatalf("unknown setting %q", kv)
		}
	}
	for p, text := range seen {
		lines := hashline.SplitLines(text)
		env.ReadCache.RecordContiguous(filepath.Join(dir, p), 1, lines, len(lines))
	}
	expand := func(s string) string {
		return anchorRef.ReplaceAllStringFunc(s, func(m string) string {
			sub := anchorRef.FindStringSubmatch(m)
			text, ok := seen[sub[1]]
			if !ok {
				text = current[sub[1]]
				if isNotebook(sub[1]) {
					text, _ = notebook.Text([]byte(text)) // anchors are the text view's
				}
			}
			n, _ := strconv.Atoi(sub[2])
			lines := hashline.SplitLines(text)
			if n < 1 || n > len(lines) {
				return sub[2] + "zz"
			}
			return hashline.Anchor(n, lines[n-1])
		})
	}
	var raw json.RawMessage
	if a, ok := sections["args.json"]; ok {
		raw = json.RawMessage(expand(a))
	} else {
		b, _ := json.Marshal(map[string]string{"input": expand(sections["input"])})
		raw = b
	}

	tl := NewMode(env, mode)
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	gotResult := res.FirstText() + "\n"
	if res.IsError {
		gotResult = "ERROR\n" + gotResult
	}
	got := map[string]string{"want/result": gotResult}
	if d, ok := res.Details.(*Details); ok && d.Diff != "" {
		got["want/diff"] = d.Diff
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		got["want/"+filepath.ToSlash(rel)] = withNoEOL(string(data))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	// want/diff is opt-in: compared, and kept up to date, only where a case
	// has it.
	if _, has := sections["want/diff"]; !has {
		delete(got, "want/diff")
	}
	ar.CheckPrefix(t, "want/", got)
	ar.Save(t)
	if golden.Update() {
		return
	}
	if fmt.Sprint(res.IsError) != fmt.Sprint(strings.HasPrefix(sections["want/result"], "ERROR\n")) {
		t.Errorf("isError = %v", res.IsError)
	}
}
