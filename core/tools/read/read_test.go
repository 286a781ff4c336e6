package read

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
)

// call runs one read in the session of env: a tool built for the call,
// with the session's pages (sessionPages), as the session's tools share
// them.
func call(t *testing.T, env *tool.Env, path string) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"path": path})
	rt := New(env, sessionPages(env)).(*Tool)
	if change, ok := capsOf.Load(env); ok {
		change.(func(*caps))(&rt.caps)
	}
	res, err := tool.Run(context.Background(), rt, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// pagesOf holds the pages of each test session (a session's services hold
// them in production).
var pagesOf sync.Map // *tool.Env → *Pages

// capsOf holds the caps a test lowered for the tools call builds for its
// session, so no test changes a package variable another one reads.
var capsOf sync.Map // *tool.Env → func(*caps)

// withCaps makes call build env's read tools with their caps changed by
// change (replacing an earlier change).
func withCaps(env *tool.Env, change func(*caps)) { capsOf.Store(env, change) }

func sessionPages(env *tool.Env) *Pages {
	p, _ := pagesOf.LoadOrStore(env, &Pages{})
	return p.(*Pages)
}

func TestSplitSelector(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		path string
		sel  Selector
	}{
		"a.go":            {"a.go", Selector{}},
		"a.go:5":          {"a.go", Selector{Start: 5}},
		"a.go:L5":         {"a.go", Selector{Start: 5}},
		"a.go:5-9":        {"a.go", Selector{Start: 5, End: 9}},
		"a.go:L5-L9":      {"a.go", Selector{Start: 5, End: 9}},
		"a.go:5+3":        {"a.go", Selector{Start: 5, End: 7}},
		"a.go:raw":        {"a.go", Selector{Raw: true}},
		"a.go:5-9:raw":    {"a.go", Selector{Raw: true, Start: 5, End: 9}},
		"a.go:raw:5-9":    {"a.go", Selector{Raw: true, Start: 5, End: 9}},
		"a.go:raw:raw":    {"a.go:raw", Selector{Raw: true}},
		"a.go:1:2":        {"a.go:1", Selector{Start: 2}},
		"a.zip:dir/f.txt": {"a.zip:dir/f.txt", Selector{}},
		"a.zip:f:50-60":   {"a.zip:f", Selector{Start: 50, End: 60}},
		":5":              {":5", Selector{}},
		"x:":              {"x:", Selector{}},
		"x:5-":            {"x:5-", Selector{}},
		"x:-5":            {"x:-5", Selector{}},
		"x:LL5":           {"x:LL5", Selector{}},
	}
	for in, want := range cases {
		p, sel, err := SplitSelector(in)
		if err != nil || p != want.path || sel != want.sel {
			t.Errorf("SplitSelector(%q) = %q %+v %v; want %q %+v", in, p, sel, err, want.path, want.sel)
		}
	}
	for _, in := range []string{"a:0", "a:L0", "a:0-3", "a:0+2", "a:3+0", "a:5-4", "a:raw:0"} {
		if _, _, err := SplitSelector(in); err == nil {
			t.Errorf("SplitSelector(%q) accepted", in)
		}
	}
}

func TestReadByteBudgetAndLongLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	env.Settings.ReadDefaultLimit = tool.DefaultMaxLines // the byte budget, not the line limit, must stop the read
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "%04d %s\n", i+1, strings.Repeat("x", 60))
	}
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(b.String()), 0o644)
	res := call(t, env, "big.txt")
	text := res.FirstText()
	if len(text) > tool.DefaultMaxBytes+200 {
		t.Fatalf("output %d bytes", len(text))
	}
	d := res.Details.(*Details)
	if d.Truncation.TruncatedBy != "bytes" || d.Truncation.NextOffset != d.Truncation.EndLine+1 || d.Truncation.TotalLines != 2001 {
		t.Fatalf("%+v", d.Truncation)
	}
	if !strings.HasSuffix(text, fmt.Sprintf("[Showing lines 1-%d of 2001 (50.0KB output limit). Use :%d to continue.]", d.Truncation.EndLine, d.Truncation.NextOffset)) {
		t.Fatalf("notice: %q", text[len(text)-120:])
	}
	snap, _ := env.ReadCache.Get(filepath.Join(dir, "big.txt"))
	if len(snap.Lines) != d.Truncation.EndLine {
		t.Fatalf("cached %d lines, shown %d", len(snap.Lines), d.Truncation.EndLine)
	}

	long := strings.Repeat("y", 80_000)
	os.WriteFile(filepath.Join(dir, "long.txt"), []byte("short\n"+long+"\nend\n"), 0o644)
	res = call(t, env, "long.txt")
	text = res.FirstText()
	want := hashline.FormatLine(2, long)[:len(hashline.Anchor(2, long))+1] + strings.Repeat("y", 1024) + "…"
	if !strings.Contains(text, want+"\n") || !strings.Contains(text, "[Line 2 is too long to show whole; it was cut to 1024 characters.]") {
		t.Fatalf("long line: %.300q", text)
	}
}

func TestReadCRLFAndBOM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	os.WriteFile(filepath.Join(dir, "w.txt"), []byte("\uFEFFfirst\r\nsecond  \r\nlast"), 0o644)
	got := call(t, env, "w.txt").FirstText()
	want := hashline.FormatLines([]string{"first", "second  ", "last"}, 1)
	if got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	if got := call(t, env, "w.txt:raw").FirstText(); got != "first\nsecond  \nlast" {
		t.Fatalf("raw %q", got)
	}
}

func TestReadHomeExpansion(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "notes.txt"), []byte("hi\n"), 0o644)
	env := tool.NewEnv(t.TempDir())
	env.Home = home
	env.Settings = tool.DefaultSettings()
	env.Settings.ReadLineNumbers = false
	env.Settings.EditMode = tool.EditReplace
	if got := call(t, env, "~/notes.txt").FirstText(); got != "hi\n" {
		t.Fatalf("got %q", got)
	}
	if got := call(t, env, "file://~/notes.txt:raw").FirstText(); got != "hi\n" {
		t.Fatalf("file:// got %q", got)
	}
}

// TestScanWindowMatchesSplit checks the streaming window against slicing a
// fully split text, across buffer-sized lines and budgets.
func TestScanWindowMatchesSplit(t *testing.T) {
	t.Parallel()
	texts := []string{"", "a", "a\n", "a\nb", "\n\n\n", strings.Repeat("z", 3*chunkSize) + "\nq\n" + strings.Repeat("w", chunkSize+5)}
	for _, text := range texts {
		lines := strings.Split(text, "\n")
		for from := 1; from <= len(lines)+1; from++ {
			for maxLines := 1; maxLines <= 3; maxLines++ {
				for _, budget := range []int{1, 10, 1 << 20} {
					w, err := scanWindow(strings.NewReader(text), from, maxLines, budget)
					if err != nil {
						t.Fatal(err)
					}
					if w.total != len(lines) {
						t.Fatalf("total %d want %d for %q", w.total, len(lines), text[:min(20, len(text))])
					}
					end := min(from-1+maxLines, len(lines))
					if from > len(lines) {
						if len(w.lines) != 0 {
							t.Fatal("lines past the end")
						}
						continue
					}
					want := lines[from-1 : end]
					if len(w.lines) > len(want) || len(w.lines) == 0 {
						t.Fatalf("from %d max %d budget %d: %d lines", from, maxLines, budget, len(w.lines))
					}
					for i := range w.lines {
						if w.lines[i] != want[i] {
							t.Fatalf("line %d differs", from+i)
						}
					}
				}
			}
		}
	}
}

// TestAnchorsVerify checks that every anchor read shows is accepted by
// hashline.Check against the file on disk, whatever the window.
func TestAnchorsVerify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	content := "\uFEFFpackage x\r\n\r\n}\r\n}\r\n  trailing  \r\n\tfunc() {}\r\n"
	os.WriteFile(filepath.Join(dir, "x.go"), []byte(content), 0o644)
	lines := tool.SplitDisplayLines(content)
	for _, sel := range []string{"", ":2", ":3-4", ":1+1", ":6"} {
		for _, row := range strings.Split(call(t, env, "x.go"+sel).FirstText(), "\n") {
			tok, _, ok := strings.Cut(row, "|")
			if !ok {
				t.Fatalf("row %q", row)
			}
			ref, err := hashline.ParseAnchor(tok)
			if err != nil {
				t.Fatal(err)
			}
			if err := hashline.Check(ref, lines); err != nil {
				t.Fatalf("%s: %v", sel, err)
			}
		}
	}
}
