package astcli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// tree writes files into a new directory and returns the scope of it.
func tree(t *testing.T, files map[string]string) ast.Scope {
	t.Helper()
	if !astgrep.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ast.Scope{Paths: []string{"."}, Cwd: dir}
}

// buffers is an Output into two buffers.
type buffers struct{ stdout, stderr bytes.Buffer }

func (b *buffers) out() Output { return Output{Stdout: &b.stdout, Stderr: &b.stderr} }

func TestGrepTextWithContext(t *testing.T) {
	t.Parallel()
	sc := tree(t, map[string]string{
		"a.py": "x = 1\nf(1)\ny = 2\nf(2)\nz = 3\nw = 4\nv = 5\nf(3)\n",
		"b.py": "f(4)\nq = 1\n",
	})
	var b buffers
	code, err := Grep(context.Background(), GrepOptions{Scope: sc, Pattern: "f($A)", Context: 1, Stats: true}, b.out())
	want := "a.py-1-x = 1\na.py:2:f(1)\na.py-3-y = 2\na.py:4:f(2)\na.py-5-z = 3\n--\na.py-7-v = 5\na.py:8:f(3)\n--\nb.py:1:f(4)\nb.py-2-q = 1\n"
	if code != ExitMatch || err != nil || b.stdout.String() != want {
		t.Fatalf("exit %d %v\n%s\nwant\n%s", code, err, b.stdout.String(), want)
	}
	if got := b.stderr.String(); got != "4 matches in 2 files; 2 files searched\n" {
		t.Errorf("stats %q", got)
	}
}

func TestGrepJSONAndNoMatch(t *testing.T) {
	t.Parallel()
	sc := tree(t, map[string]string{"a.go": "package a\n\nfunc f() { g(1) }\n"})
	var b buffers
	code, err := Grep(context.Background(), GrepOptions{Scope: sc, Pattern: "g($X)", JSON: true}, b.out())
	if code != ExitMatch || err != nil || !strings.Contains(b.stdout.String(), `"metaVariables":{"single":{"X":{"text":"1"`) {
		t.Fatalf("exit %d %v: %s", code, err, b.stdout.String())
	}
	b = buffers{}
	code, err = Grep(context.Background(), GrepOptions{Scope: sc, Pattern: "h($X)"}, b.out())
	if code != ExitNoMatch || err != nil || b.stdout.Len() != 0 {
		t.Fatalf("no match: exit %d %v %q", code, err, b.stdout.String())
	}
}

// A preview prints an id; applying with another id writes nothing.
func TestEditExpect(t *testing.T) {
	t.Parallel()
	sc := tree(t, map[string]string{"a.py": "f(1)\n"})
	o := EditOptions{Scope: sc, Pattern: "f($A)", Rewrite: "g($A)", MaxFiles: 10}
	var b buffers
	code, err := Edit(context.Background(), o, b.out())
	out := b.stdout.String()
	_, after, ok := strings.Cut(out, "--expect ")
	id, _, _ := strings.Cut(after, " ")
	if code != ExitMatch || err != nil || !ok || len(id) != 12 || !strings.HasPrefix(out, "a.py:1:1\n-f(1)\n+g(1)\n1 replacements in 1 files (preview ") {
		t.Fatalf("preview: exit %d %v\n%s", code, err, out)
	}
	o.Apply, o.Expect = true, "000000000000"
	if code, err := Edit(context.Background(), o, (&buffers{}).out()); code != ExitError || err == nil || !strings.Contains(err.Error(), "differ from the preview") {
		t.Fatalf("stale id: exit %d %v", code, err)
	}
	o.Expect = id
	b = buffers{}
	if code, err := Edit(context.Background(), o, b.out()); code != ExitMatch || err != nil || !strings.HasSuffix(b.stdout.String(), "Applied 1 replacements in 1 files.\n") {
		t.Fatalf("apply: exit %d %v\n%s", code, err, b.stdout.String())
	}
	if got, _ := os.ReadFile(filepath.Join(sc.Cwd, "a.py")); string(got) != "g(1)\n" {
		t.Fatalf("wrote %q", got)
	}
}

func TestRunRewriteJSONWritesNothing(t *testing.T) {
	t.Parallel()
	sc := tree(t, map[string]string{"a.py": "f(1)\n"})
	rw := "g($A)"
	var b buffers
	code, err := Run(context.Background(), RunOptions{Scope: sc, Pattern: "f($A)", Rewrite: &rw, UpdateAll: true, JSON: JSONCompact}, b.out())
	if code != ExitMatch || err != nil || !strings.Contains(b.stdout.String(), `"replacement":"g(1)"`) || !strings.HasPrefix(b.stdout.String(), "[{") {
		t.Fatalf("exit %d %v: %s", code, err, b.stdout.String())
	}
	if got, _ := os.ReadFile(filepath.Join(sc.Cwd, "a.py")); string(got) != "f(1)\n" {
		t.Fatalf("--json wrote %q", got)
	}
}

func TestScanRules(t *testing.T) {
	t.Parallel()
	sc := tree(t, map[string]string{"a.py": "f(1)\n"})
	var b buffers
	_, err := Scan(context.Background(), ScanOptions{Scope: sc}, b.out())
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("no rules: %v, want a UsageError", err)
	}
	rule := "id: no-f\nlanguage: python\nseverity: error\nmessage: no f\nrule:\n  pattern: f($A)\n"
	code, err := Scan(context.Background(), ScanOptions{Scope: sc, InlineRules: rule}, b.out())
	if code != ExitNoMatch || err != nil || b.stdout.String() != "a.py:1:1: error[no-f]: no f\na.py:1:f(1)\n" {
		t.Fatalf("exit %d %v\n%s", code, err, b.stdout.String())
	}
}

func TestWriteJSONStyle(t *testing.T) {
	t.Parallel()
	items := []any{map[string]any{"a": "<b>", "n": []int{1}}, map[string]any{"a": "c"}}
	for _, tc := range []struct {
		style string
		items []any
		want  string
	}{
		{JSONPretty, items, "[\n{\n  \"a\": \"<b>\",\n  \"n\": [\n    1\n  ]\n},\n{\n  \"a\": \"c\"\n}\n]\n"},
		{JSONPretty, []any{}, "[]\n"},
		{JSONCompact, items, `[{"a":"<b>","n":[1]},{"a":"c"}]` + "\n"},
		{JSONStream, items, `{"a":"<b>","n":[1]}` + "\n" + `{"a":"c"}` + "\n"},
		{JSONStream, []any{}, ""},
	} {
		var b bytes.Buffer
		if err := writeJSONStyle(&b, tc.style, tc.items); err != nil || b.String() != tc.want {
			t.Errorf("%s %d items: %v\n%q\nwant\n%q", tc.style, len(tc.items), err, b.String(), tc.want)
		}
	}
}
