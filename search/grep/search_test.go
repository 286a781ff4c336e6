package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/native/rure"
)

// writeTree creates files (path → content) under a new temp dir.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// engines runs fn once per available engine.
// fn builds its options with opts, DefaultOptions for that engine.
func engines(t *testing.T, fn func(t *testing.T, opts func(pattern, path string) Options)) {
	for _, native := range []bool{false, true} {
		if native && !rure.Available {
			continue
		}
		t.Run(map[bool]string{false: "go", true: "native"}[native], func(t *testing.T) {
			fn(t, func(pattern, path string) Options {
				o := DefaultOptions(pattern, path)
				o.tuning.goRegex = !native
				return o
			})
		})
	}
}

// newContents returns an empty content cache with budget for the test,
// closed when the test ends; watch false makes it check every file with a
// stat instead of using inotify.
//
// The files of these tests were just written, which the cache would not
// keep (see racyWindow): its clock runs an hour ahead, and tests that
// change a file wait for the file system's clock to tick first.
func newContents(t *testing.T, budget int64, watch bool) *ContentCache {
	t.Helper()
	c := NewContentCache(budget)
	c.noWatch = !watch
	c.now = func() time.Time { return time.Now().Add(time.Hour) }
	t.Cleanup(func() { c.Close() })
	return c
}

func search(t *testing.T, o Options) *Result {
	t.Helper()
	res, err := Search(context.Background(), o)
	if err != nil {
		t.Fatalf("Search(%+v): %v", o, err)
	}
	return res
}

func lineNumbers(ms []Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%s:%d:%s", m.Path, m.Line, m.Text))
	}
	return out
}

func TestSearchOrderAndModes(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"b.txt":       "x1\nno\nx2\n",
		"a/z.txt":     "x3",
		"a.txt":       "no\nx4\n",
		".hidden.txt": "x5\n",
		"bin.dat":     "x6\x00\n",
	})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		o := opts(`x\d`, dir)
		res := search(t, o)
		want := []string{"a/z.txt:1:x3", "a.txt:2:x4", "b.txt:1:x1", "b.txt:3:x2", ".hidden.txt:1:x5"}
		// Siblings sort bytewise: ".hidden.txt" < "a" < "a.txt" < "b.txt".
		want = append(want[4:], want[:4]...)
		if got := lineNumbers(res.Matches); !reflect.DeepEqual(got, want) {
			t.Fatalf("matches\n got %q\nwant %q", got, want)
		}
		if res.TotalMatches != 5 || res.FilesWithMatches != 4 || res.BinarySkipped != 1 || res.FilesSearched != 4 {
			t.Fatalf("totals %+v", res)
		}
		o.Hidden = false
		if res := search(t, o); res.TotalMatches != 4 {
			t.Fatalf("hidden=false total %d", res.TotalMatches)
		}
		o.Mode = ModeCount
		res = search(t, o)
		if len(res.Files) != 3 || res.Files[2].Path != "b.txt" || res.Files[2].Lines != 2 {
			t.Fatalf("count mode %+v", res.Files)
		}
		o.Mode = ModeFilesWithMatches
		o.Limit = 1
		o.Offset = 1
		res = search(t, o)
		if len(res.Files) != 1 || res.Files[0].Path != "a.txt" || !res.LimitReached || res.TotalMatches != 4 {
			t.Fatalf("files mode page %+v", res)
		}
	})
}

func TestSearchOffsetLimitTotals(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("hit\nmiss\n", 5)
	}
	dir := writeTree(t, files)
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		o := opts("hit", dir)
		o.Offset, o.Limit = 7, 6
		res := search(t, o)
		if len(res.Matches) != 6 || res.TotalMatches != 100 || !res.LimitReached {
			t.Fatalf("page %d total %d limit %v", len(res.Matches), res.TotalMatches, res.LimitReached)
		}
		if res.Matches[0].Path != "f01.txt" || res.Matches[0].Line != 5 {
			t.Fatalf("first of page %+v", res.Matches[0])
		}
		o.Offset, o.Limit = 95, 10
		res = search(t, o)
		if len(res.Matches) != 5 || res.LimitReached {
			t.Fatalf("last page %d %v", len(res.Matches), res.LimitReached)
		}
	})
}

func TestSearchContext(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"f.txt": "1\nhit\n3\n4\n5\nhit\nhit\n8\n9\n10\n"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		o := opts("hit", filepath.Join(dir, "f.txt"))
		o.ContextBefore, o.ContextAfter = 2, 2
		res := search(t, o)
		if len(res.Matches) != 3 {
			t.Fatalf("matches %d", len(res.Matches))
		}
		ctx := func(ls []ContextLine) []int {
			var n []int
			for _, l := range ls {
				n = append(n, l.Line)
			}
			return n
		}
		got := [][]int{ctx(res.Matches[0].Before), ctx(res.Matches[0].After), ctx(res.Matches[1].Before), ctx(res.Matches[1].After), ctx(res.Matches[2].Before), ctx(res.Matches[2].After)}
		want := [][]int{{1}, {3, 4}, {5}, nil, nil, {8, 9}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("context lines %v, want %v", got, want)
		}
	})
}

func TestSearchEdgeInputs(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 1500) + "needle"
	huge := strings.Repeat("a", 10<<20) + "needle"
	dir := writeTree(t, map[string]string{
		"long.txt":  long + "\n",
		"huge.txt":  huge,
		"bad.txt":   "pre \xff\xfe needle \xc3\n",
		"empty.txt": "",
		"crlf.txt":  "needle\r\nother\r\n",
	})
	if err := os.Symlink(dir, filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		res := search(t, opts("needle", dir))
		byPath := map[string]Match{}
		for _, m := range res.Matches {
			byPath[m.Path] = m
		}
		if len(res.Matches) != 4 {
			t.Fatalf("matches %q", lineNumbers(res.Matches))
		}
		if m := byPath["long.txt"]; !m.Truncated || m.Text != strings.Repeat("é", 1024)+"…" {
			t.Fatalf("long line: truncated=%v len=%d", m.Truncated, len(m.Text))
		}
		if m := byPath["huge.txt"]; !m.Truncated || len(m.Text) != 1024+len("…") {
			t.Fatalf("10 MB line not searched to its end or not cut: %v %d", m.Truncated, len(m.Text))
		}
		if m := byPath["bad.txt"]; m.Text != "pre \xff\xfe needle \xc3" || len(m.Spans) != 1 || m.Text[m.Spans[0].Start:m.Spans[0].End] != "needle" {
			t.Fatalf("invalid UTF-8 line %q %v", m.Text, m.Spans)
		}
		if m := byPath["crlf.txt"]; m.Text != "needle\r" {
			t.Fatalf("crlf line %q", m.Text)
		}
	})
}

func TestSearchEmptyMatchingPattern(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"f.txt": "a\n\nb", "g.txt": "one\n"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		for _, p := range []string{"x*", "^", "$", ""} {
			res := search(t, opts(p, dir))
			if res.TotalMatches != 4 {
				t.Fatalf("%q: %d matching lines (%q), want every line (4)", p, res.TotalMatches, lineNumbers(res.Matches))
			}
		}
	})
}

func TestSearchErrors(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"f.txt": "x"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		_, err := Search(context.Background(), opts("a[b", dir))
		if err == nil || !strings.HasPrefix(err.Error(), "regex parse error") {
			t.Fatalf("invalid regex: %v", err)
		}
		_, err = Search(context.Background(), opts("x", filepath.Join(dir, "nope")))
		if err == nil || err.Error() != "Path not found: "+filepath.Join(dir, "nope") {
			t.Fatalf("missing path: %v", err)
		}
		// Unbalanced parentheses are retried literally.
		dir2 := writeTree(t, map[string]string{"f.txt": "call(1\n"})
		if res := search(t, opts("call(", dir2)); res.TotalMatches != 1 {
			t.Fatalf("call( retry found %d", res.TotalMatches)
		}
	})
}

func TestSearchMultiline(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"f.txt": "foo\nbar\nfoo bar\nfoo\nbar\n"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		res := search(t, opts(`foo\nbar`, dir))
		got := lineNumbers(res.Matches)
		want := []string{"f.txt:1:foo\nbar", "f.txt:4:foo\nbar"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("multiline %q want %q", got, want)
		}
		// Without \n a pattern can never cross a line, even through \s.
		if res := search(t, opts(`foo\sbar`, dir)); res.TotalMatches != 1 {
			t.Fatalf(`foo\sbar matched %d lines`, res.TotalMatches)
		}
	})
}

func TestSearchUnreadableFileSkipped(t *testing.T) {
	t.Parallel()
	w := worker{m: nil, opts: &Options{tuning: tuning{}.resolved()}}
	if o := w.search(context.Background(), candidate{display: "gone", abs: filepath.Join(t.TempDir(), "gone")}, false, func(*FileResult) bool { return true }); o.skipped == nil {
		t.Fatalf("missing file not reported as skipped: %+v", o)
	}
}

func TestSearchTimeoutAndCancel(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d/f%03d.txt", i)] = strings.Repeat("line\n", 1000)
	}
	dir := writeTree(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, DefaultOptions("line", dir)); err == nil {
		t.Fatal("cancelled search returned no error")
	}
	o := DefaultOptions("line", dir)
	o.Timeout = time.Nanosecond
	if _, err := Search(context.Background(), o); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("timeout: %v", err)
	}
}

// TestNativeMatchesGoEngine is the oracle test: over random trees and
// patterns in the syntax both engines share, the native engine's results
// equal the pure-Go engine's.
func TestNativeMatchesGoEngine(t *testing.T) {
	t.Parallel()
	if !rure.Available {
		t.Skip("native engine not built (cgo off)")
	}
	rng := rand.New(rand.NewSource(7))
	words := []string{"foo", "bar", "Foo", "baz_1", "x", "", " ", "\t", "{", "}", "(", "fn", "42", "é", "naïve", "end."}
	files := map[string]string{}
	for i := range 30 {
		var b strings.Builder
		for range rng.Intn(40) {
			for range rng.Intn(8) {
				b.WriteString(words[rng.Intn(len(words))])
				if rng.Intn(3) == 0 {
					b.WriteByte(' ')
				}
			}
			b.WriteByte('\n')
		}
		if rng.Intn(4) == 0 {
			b.WriteString("tail without newline")
		}
		files[fmt.Sprintf("d%d/f%d.txt", i%4, i)] = b.String()
	}
	dir := writeTree(t, files)
	// Perl classes (\b \w \d \s) are Unicode-aware in Rust and ASCII in Go:
	// patterns using them run over an ASCII-only copy of the tree.
	ascii := map[string]string{}
	for name, text := range files {
		ascii[name] = strings.NewReplacer("é", "e", "ï", "i").Replace(text)
	}
	asciiDir := writeTree(t, ascii)
	patterns := []string{`foo`, `(?i)foo`, `^foo`, `bar$`, `fo+`, `[0-9]+`, `\bx\b`, `ba[rz]`, `foo|bar`,
		`^$`, `x*`, `\{`, `${x}`, `f(`, `[a-z]+_[0-9]`, `foo\s+bar`, `\w+\.`, `foo\nbar`, `end\.\n`, `^\s*$`, `\d{2}`, `(?i)NAÏVE`}
	for _, p := range patterns {
		for _, ic := range []bool{false, true} {
			o := DefaultOptions(p, dir)
			if strings.Contains(p, `\`) {
				o.Path = asciiDir
			}
			o.IgnoreCase = ic
			o.ContextBefore, o.ContextAfter = 1, 2
			o.tuning.goRegex = true
			want, errWant := Search(context.Background(), o)
			o.tuning.goRegex = false
			got, errGot := Search(context.Background(), o)
			if (errWant == nil) != (errGot == nil) {
				t.Fatalf("%q: go err %v, native err %v", p, errWant, errGot)
			}
			if errWant != nil {
				continue
			}
			if !reflect.DeepEqual(lineNumbers(got.Matches), lineNumbers(want.Matches)) || got.TotalMatches != want.TotalMatches {
				t.Fatalf("%q ignoreCase=%v:\nnative %q\n    go %q", p, ic, lineNumbers(got.Matches), lineNumbers(want.Matches))
			}
			for i := range got.Matches {
				g, w := got.Matches[i], want.Matches[i]
				if !reflect.DeepEqual(g.Before, w.Before) || !reflect.DeepEqual(g.After, w.After) {
					t.Fatalf("%q: context differs at %d", p, i)
				}
			}
		}
	}
}

// Escapes with braced arguments keep their braces: they are not template
// text (a regression: \p{Greek} used to become \p\{Greek\}, an error).
func TestSearchBracedEscapes(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"f.txt": "plain\nαβγ word\nA{x}\n"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		for p, want := range map[string]int{`\p{Greek}+`: 1, `\x{41}\{x\}`: 1, `\P{Greek}{5}`: 2, `${x}`: 0, `A{x}`: 1} {
			if res := search(t, opts(p, dir)); res.TotalMatches != want {
				t.Errorf("%q: %d matching lines, want %d", p, res.TotalMatches, want)
			}
		}
	})
}

// A line holding only invalid UTF-8 is still a line that `^` and friends
// match (ripgrep prints it).
func TestSearchEmptyMatchOnInvalidUTF8Line(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"f.txt": "a\n\xa6\n"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		for _, p := range []string{`^`, `^.*`, `^\s*`, `\A.*`} {
			res := search(t, opts(p, dir))
			if got := lineNumbers(res.Matches); !reflect.DeepEqual(got, []string{"f.txt:1:a", "f.txt:2:\xa6"}) {
				t.Errorf("%q: %q", p, got)
			}
		}
	})
}

// A UTF-8 byte-order mark is not part of the first line: ripgrep drops it
// before matching, so `^import` finds line 1 and the text has no BOM.
func TestSearchSkipsUTF8BOM(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.go": "\xef\xbb\xbfimport x\nimport y\n", "b.txt": "\xef\xbb\xbf"})
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		res := search(t, opts(`^import`, dir))
		want := []string{"a.go:1:import x", "a.go:2:import y"}
		if got := lineNumbers(res.Matches); !reflect.DeepEqual(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
		if s := res.Matches[0].Spans; len(s) != 1 || s[0] != (Span{Start: 0, End: 6}) {
			t.Fatalf("spans %v", s)
		}
		// A file holding only a BOM has no lines.
		if res := search(t, opts(`^`, dir)); res.TotalMatches != 2 {
			t.Fatalf("^ matched %q", lineNumbers(res.Matches))
		}
	})
}

// ripgrep's --count counts matches when a match can span lines; the engine
// tells such searches apart.
func TestCrossesLines(t *testing.T) {
	t.Parallel()
	engines(t, func(t *testing.T, opts func(pattern, path string) Options) {
		for _, tt := range []struct {
			pattern   string
			multiline bool
			want      bool
		}{
			{`a\nb|x`, false, true}, {`\s`, true, true}, {`[^x]`, true, true}, {`(?s).`, true, true},
			{`o|x`, true, false}, {`^a$`, true, false}, {`.`, true, false}, {`\s`, false, false},
		} {
			o := opts(tt.pattern, ".")
			o.Multiline = tt.multiline
			got, err := CrossesLines(o)
			if err != nil || got != tt.want {
				t.Errorf("%q multiline=%v: %v, %v; want %v", tt.pattern, tt.multiline, got, err, tt.want)
			}
		}
		if _, err := CrossesLines(opts("a[", ".")); err == nil {
			t.Error("no compile error")
		}
	})
}

// node_modules is pruned unless the glob names it or NodeModules is set
// (the CLI sets it, as ripgrep has no such rule).
func TestSearchNodeModules(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.js": "x\n", "node_modules/p/b.js": "x\n", "sub/node_modules/c.js": "x\n"})
	o := DefaultOptions("x", dir)
	o.Mode = ModeFilesWithMatches
	if res := search(t, o); res.FilesWithMatches != 1 {
		t.Fatalf("default: %d files", res.FilesWithMatches)
	}
	o.NodeModules = true
	if res := search(t, o); res.FilesWithMatches != 3 {
		t.Fatalf("NodeModules: %d files", res.FilesWithMatches)
	}
}

// failingMatcher wraps a matcher and fails, the way the native engine
// reports a caught Rust panic, on every buffer that holds "BOOM".
type failingMatcher struct{ lineMatcher }

var errEngine = errors.New("internal error: native code panicked: test")

func (f failingMatcher) findLines(buf []byte, maxLines int, firstOnly bool, h *rure.Hits) error {
	if bytes.Contains(buf, []byte("BOOM")) {
		return errEngine
	}
	return f.lineMatcher.findLines(buf, maxLines, firstOnly, h)
}

func (f failingMatcher) countLines(buf []byte) (int, int, error) {
	if bytes.Contains(buf, []byte("BOOM")) {
		return 0, 0, errEngine
	}
	return f.lineMatcher.countLines(buf)
}

func (f failingMatcher) isMatch(buf []byte) (bool, error) {
	if bytes.Contains(buf, []byte("BOOM")) {
		return false, errEngine
	}
	return f.lineMatcher.isMatch(buf)
}

// An engine failure on one file skips that file with its error and the
// search goes on: no panic reaches the worker goroutine.
func TestSearchEngineFailureSkipsFile(t *testing.T) {
	t.Parallel()
	failing := func(cfg matcherConfig) (lineMatcher, error) {
		m, err := compileMatcher(cfg)
		if err != nil {
			return nil, err
		}
		return failingMatcher{m}, nil
	}
	dir := writeTree(t, map[string]string{"a.txt": "foo\n", "b.txt": "foo BOOM\n", "c.txt": "foo\n"})
	for _, mode := range []Mode{ModeContent, ModeCount, ModeFilesWithMatches} {
		opts := DefaultOptions("foo", dir)
		opts.Mode = mode
		opts.tuning.compile = failing
		res, err := Search(context.Background(), opts)
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
		if res.FilesWithMatches != 2 || res.FilesSkipped != 1 || len(res.Skipped) != 1 {
			t.Fatalf("mode %d: %d with matches, %d skipped (%v); want 2 and 1", mode, res.FilesWithMatches, res.FilesSkipped, res.Skipped)
		}
		sk := res.Skipped[0]
		if sk.Path != "b.txt" || !errors.Is(sk.Err, errEngine) || !strings.Contains(sk.Err.Error(), "b.txt") {
			t.Errorf("mode %d: skipped %+v", mode, sk)
		}
	}
}

// Unreadable files are named in Skipped with their read error.
func TestSearchSkippedNamesUnreadable(t *testing.T) {
	t.Parallel()
	if os.Getuid() == 0 {
		t.Skip("root reads everything")
	}
	dir := writeTree(t, map[string]string{"a.txt": "foo\n", "b.txt": "foo\n"})
	if err := os.Chmod(filepath.Join(dir, "b.txt"), 0); err != nil {
		t.Fatal(err)
	}
	res, err := Search(context.Background(), DefaultOptions("foo", dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "b.txt" || !errors.Is(res.Skipped[0].Err, fs.ErrPermission) {
		t.Fatalf("skipped %+v", res.Skipped)
	}
}

// A syntax error in a pattern whose braces were escaped before compiling
// names the pattern as typed, at the position of the mistake in it.
func TestSearchErrorPositionIsTheTypedOne(t *testing.T) {
	t.Parallel()
	if !rure.Available {
		t.Skip("the Go engine reports no positions")
	}
	dir := writeTree(t, map[string]string{"f.txt": "x"})
	for _, tc := range []struct {
		pattern string
		pos     int
	}{
		{`${x}[z-a]`, 5},
		{`a{b}(c)[`, 7},
		{`[z-a]`, 1},
		{`{}{}{}\p{Nope}`, 6},
	} {
		_, err := Search(context.Background(), DefaultOptions(tc.pattern, dir))
		var re *rure.Error
		if !errors.As(err, &re) || re.Pattern != tc.pattern || re.Pos != tc.pos {
			t.Errorf("%q: err %v, want a syntax error at byte %d of the typed pattern", tc.pattern, err, tc.pos)
		}
	}
	for _, tc := range []struct {
		orig, escaped string
		pos, want     int
	}{
		{`${x}`, `\$\{x\}`, 4, 2},
		{`a(b`, `a\(b`, 3, 2},
		{`\{x}`, `\{x\}`, 4, 3},
	} {
		if got := unescapedOffset(tc.orig, tc.escaped, tc.pos); got != tc.want {
			t.Errorf("unescapedOffset(%q, %q, %d) = %d, want %d", tc.orig, tc.escaped, tc.pos, got, tc.want)
		}
	}
}

// Files read a block at a time give the same results as files read whole,
// in every mode, with blocks far smaller than the file and than some
// lines; a NUL byte after the first block ends the search of a text file.
// fooLines is 3000 lines of a test text: every seventh holds "foo" twice,
// every seventh from the fourth is a long run of long before " foo tail".
func fooLines(long string) string {
	var text strings.Builder
	for i := range 3000 {
		switch i % 7 {
		case 0:
			fmt.Fprintf(&text, "foo %d foo\n", i)
		case 3:
			text.WriteString(strings.Repeat(long, 300) + " foo tail\n")
		default:
			fmt.Fprintf(&text, "line %d\n", i)
		}
	}
	return text.String()
}

func TestSearchBlocksMatchWhole(t *testing.T) {
	t.Parallel()
	text := fooLines("x") + "last foo without newline"
	dir := writeTree(t, map[string]string{"big.txt": text, "late.bin": strings.Repeat("foo\n", 500) + "\x00foo\n", "bin.dat": "foo\x00\nfoo\n"})
	type variant struct {
		name string
		opt  func(*Options)
	}
	variants := []variant{
		{"content", func(o *Options) {}},
		{"count", func(o *Options) { o.Mode = ModeCount }},
		{"files", func(o *Options) { o.Mode = ModeFilesWithMatches }},
		{"invert", func(o *Options) { o.Invert = true }},
		{"max-count", func(o *Options) { o.MaxCount = 250 }},
		{"invert max-count count", func(o *Options) { o.Invert, o.MaxCount, o.Mode = true, 99, ModeCount }},
		{"context (whole read)", func(o *Options) { o.ContextBefore, o.ContextAfter = 1, 2 }},
	}
	run := func(path string, v variant, blocks bool) []string {
		o := DefaultOptions("foo", path)
		if blocks {
			o = withBlocks(o, 64, 256)
		}
		o.MaxColumns = 0
		v.opt(&o)
		var got []string
		lines, count, binary := 0, 0, ""
		sum, err := Stream(context.Background(), o, func(fr *FileResult) error {
			// A file read in blocks arrives in several parts: add them up.
			lines += fr.Lines
			count += fr.Count
			if fr.Binary {
				binary = fmt.Sprintf("binary@%d", fr.NULOffset)
			}
			for _, m := range fr.Matches {
				got = append(got, fmt.Sprintf("%d@%d:%s %v %v %v", m.Line, m.Offset, m.Text, m.Spans, m.Before, m.After))
				// A match's offset is where its line starts in the file.
				if data, err := os.ReadFile(path); err == nil && (m.Offset > int64(len(data)) || !strings.HasPrefix(string(data[m.Offset:]), m.Text)) {
					t.Errorf("%s %s: line %d at offset %d is not %.40q", v.name, path, m.Line, m.Offset, m.Text)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return append(got, fmt.Sprintf("lines %d count %d %s total %d files %d", lines, count, binary, sum.TotalMatches, sum.FilesWithMatches))
	}
	for _, v := range variants {
		for _, name := range []string{"big.txt", "late.bin", "bin.dat"} {
			path := filepath.Join(dir, name)
			want := run(path, v, false)
			got := run(path, v, true)
			if name == "late.bin" && !strings.Contains(v.name, "invert") {
				// Read whole, the NUL makes nothing of it printable
				// (the named file is binary); read in blocks, the text
				// before the NUL is searched, as ripgrep does.
				continue
			}
			for i := range max(len(got), len(want)) {
				if i >= len(got) || i >= len(want) || got[i] != want[i] {
					g, w := "(none)", "(none)"
					if i < len(got) {
						g = got[i]
					}
					if i < len(want) {
						w = want[i]
					}
					t.Errorf("%s %s: blocks differ from whole at %d of %d/%d:\nblocks: %.300q\nwhole:  %.300q", v.name, name, i, len(got), len(want), g, w)
					break
				}
			}
		}
	}
}

func TestIsPseudoFile(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{"/proc/1/pagemap": true, "/sys/kernel/x": true, "/dev/zero": true, "/home/proc/x": false, "/procfs": false, "/": false} {
		if isPseudoFile(p) != want {
			t.Errorf("isPseudoFile(%q) = %v", p, !want)
		}
	}
}

// StreamReader reads its input a block at a time and gives what Stream
// gives for the same text in a named file.
func TestStreamReaderInBlocks(t *testing.T) {
	t.Parallel()
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "line %d %s\n", i, strings.Repeat("ab", i%50))
	}
	dir := writeTree(t, map[string]string{"f.txt": text.String()})
	collect := func(fr *FileResult, out *[]string) {
		for _, m := range fr.Matches {
			*out = append(*out, fmt.Sprintf("%d:%s", m.Line, m.Text))
		}
	}
	var want, got []string
	if _, err := Stream(context.Background(), DefaultOptions(`7 (ab)+$`, filepath.Join(dir, "f.txt")), func(fr *FileResult) error { collect(fr, &want); return nil }); err != nil {
		t.Fatal(err)
	}
	parts := 0
	sum, err := StreamReader(context.Background(), withBlocks(DefaultOptions(`7 (ab)+$`, ""), 0, 100), "<stdin>", strings.NewReader(text.String()), func(fr *FileResult) error {
		parts++
		collect(fr, &got)
		return nil
	})
	if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == 0 || sum.TotalMatches != len(want) {
		t.Fatalf("StreamReader: %d matches (%v), want %d; sum %+v", len(got), err, len(want), sum)
	}
	if parts < 2 {
		t.Errorf("results came in %d part(s); a block at a time gives several", parts)
	}
}

// Options.Files is searched in its own order, each file reported by its
// Path; a named binary file is reported, an unnamed one skipped, and a
// missing one is named among the skipped files.
func TestSearchListedFiles(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.txt": "foo a\n", "b/c.txt": "foo c\nfoo c2\n", "bin.dat": "foo\x00\n", "d.txt": "no\n"})
	j := func(p string) string { return filepath.Join(dir, p) }
	o := DefaultOptions("foo", "ignored")
	o.Glob = "*.none" // filters a walk of Path only
	o.Files = []FileRef{{Path: j("b/c.txt")}, {Path: j("bin.dat")}, {Path: j("d.txt")}, {Path: j("a.txt")}, {Path: j("bin.dat"), Named: true}, {Path: j("gone.txt")}}
	var got []string
	sum, err := Stream(context.Background(), o, func(fr *FileResult) error {
		got = append(got, fmt.Sprintf("%s %d %v", strings.TrimPrefix(fr.Path, dir), fr.Lines, fr.Binary))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/b/c.txt 2 false", "/a.txt 1 false", "/bin.dat 1 true"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if sum.BinarySkipped != 1 || sum.FilesSkipped != 1 || len(sum.Skipped) != 1 || sum.Skipped[0].Path != j("gone.txt") {
		t.Errorf("summary %+v", sum)
	}
}

// Options.Binary (ripgrep's --binary): a binary file found by the walk is
// searched and reported as it is when named as Path (FileResult.Binary,
// no lines), in every mode, read whole or in blocks, with or without the
// content cache; without it the file is skipped.
func TestSearchBinaryOptionReportsWalkedFilesAsNamed(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"a.txt":    "foo text\n",
		"bin.dat":  "foo\x00bar\nfoo again\n",
		"late.bin": strings.Repeat("foo\n", 40) + "\x00foo\n",
		"nomatch":  "bar\x00\n",
	})
	describe := func(fr *FileResult) string {
		return fmt.Sprintf("%s lines %d binary %v nul %d matches %d", filepath.Base(fr.Path), fr.Lines, fr.Binary, fr.NULOffset, len(fr.Matches))
	}
	for _, mode := range []Mode{ModeContent, ModeCount, ModeFilesWithMatches} {
		for _, blocks := range []bool{false, true} {
			for _, cached := range []bool{false, true} {
				name := fmt.Sprintf("mode %d blocks %v content cache %v", mode, blocks, cached)
				run := func(path string, binary bool) ([]string, *Summary) {
					o := DefaultOptions("foo", path)
					if blocks {
						o = withBlocks(o, 64, 256)
					}
					o.Mode, o.Binary = mode, binary
					if cached {
						o.ContentCache = newContents(t, 0, true)
						defer o.ContentCache.Close()
					}
					var got []string
					sum, err := Stream(context.Background(), o, func(fr *FileResult) error {
						got = append(got, describe(fr))
						return nil
					})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					return got, sum
				}
				var want []string
				for _, f := range []string{"a.txt", "bin.dat", "late.bin", "nomatch"} {
					named, _ := run(filepath.Join(dir, f), false)
					want = append(want, named...)
				}
				got, sum := run(dir, true)
				if !slices.Equal(got, want) {
					t.Errorf("%s: with Binary the walk gives\n%q\nnamed files give\n%q", name, got, want)
				}
				if sum.BinarySkipped != 0 || sum.FilesSearched != 4 || sum.FilesWithMatches != 3 {
					t.Errorf("%s: summary %+v", name, sum)
				}
				got, sum = run(dir, false)
				if len(got) != 1 || sum.BinarySkipped != 3 {
					t.Errorf("%s: without Binary: %q, summary %+v", name, got, sum)
				}
			}
		}
	}
}

// withBlocks returns o with files over limit bytes read in blocks of block
// bytes (0: the default of either).
func withBlocks(o Options, limit int64, block int) Options {
	o.tuning.wholeFileLimit, o.tuning.blockSize = limit, block
	return o
}
