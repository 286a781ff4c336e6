package printer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/search/grep"
)

// search runs a search of the files (name → text) with o, printing with
// cfg through records (File) and through the workers (Renderer); both
// must print the same where the engine renders.
func search(t *testing.T, files map[string]string, o grep.Options, cfg Config) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o.Path = dir
	cfg.Mode, cfg.Context = o.Mode, o.ContextBefore > 0 || o.ContextAfter > 0
	print := func(needs grep.Needs) string {
		var out bytes.Buffer
		p := New(&out, cfg)
		if _, err := grep.StreamTo(context.Background(), o, sink{needs, func(fr *grep.FileResult) error { return p.File(fr.Path, fr) }}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	records := print(grep.Needs{})
	if o.Mode == grep.ModeContent {
		p := New(nil, cfg)
		if rendered := print(p.ContentNeeds(func(path string) string { return path })); rendered != records {
			t.Errorf("rendered in the workers:\n%s\nprinted from records:\n%s", rendered, records)
		}
	}
	return records
}

// sink is a grep.Sink of fn with needs.
type sink struct {
	needs grep.Needs
	fn    func(*grep.FileResult) error
}

func (s sink) Needs() grep.Needs              { return s.needs }
func (s sink) File(fr *grep.FileResult) error { return s.fn(fr) }

func TestPrinterLayouts(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"a.txt":     "one\nfoo two\nthree\nfour\nfive foo foo\n",
		"b/c.txt":   "foo\n",
		"bin.dat":   "foo\x00\n",
		"empty.txt": "",
	}
	opts := func(pattern string, set func(*grep.Options)) grep.Options {
		o := grep.DefaultOptions(pattern, "")
		o.Binary = true
		if set != nil {
			set(&o)
		}
		return o
	}
	colors := Palette{Path: "<P>", Line: "<L>", Column: "<C>", Match: "<M>", Reset: "</>"}
	for _, tc := range []struct {
		name string
		o    grep.Options
		cfg  Config
		want string
	}{
		{"lines", opts("foo", nil), Config{WithPath: true, LineNumbers: true},
			"a.txt:2:foo two\na.txt:5:five foo foo\nb/c.txt:1:foo\nbin.dat: binary file matches (found \"\\0\" byte around offset 3)\n"},
		{"no path, column, byte offset", opts("foo", nil), Config{LineNumbers: true, Column: true, ByteOffset: true},
			"2:1:4:foo two\n5:6:23:five foo foo\n1:1:0:foo\nbinary file matches (found \"\\0\" byte around offset 3)\n"},
		{"context separators", opts("foo", func(o *grep.Options) { o.ContextBefore = 1 }), Config{WithPath: true, LineNumbers: true},
			"a.txt-1-one\na.txt:2:foo two\n--\na.txt-4-four\na.txt:5:five foo foo\n--\nb/c.txt:1:foo\nbin.dat: binary file matches (found \"\\0\" byte around offset 3)\n"},
		{"only matching", opts("foo", nil), Config{LineNumbers: true, OnlyMatching: true, Column: true},
			"2:1:foo\n5:6:foo\n5:10:foo\n1:1:foo\nbinary file matches (found \"\\0\" byte around offset 3)\n"},
		{"vimgrep", opts("foo", nil), Config{WithPath: true, LineNumbers: true, Column: true, Vimgrep: true},
			"a.txt:2:1:foo two\na.txt:5:6:five foo foo\na.txt:5:10:five foo foo\nb/c.txt:1:1:foo\nbin.dat: binary file matches (found \"\\0\" byte around offset 3)\n"},
		{"colours", opts("foo", func(o *grep.Options) { o.Binary = false }), Config{Colors: colors, WithPath: true, LineNumbers: true},
			"<P>a.txt</>:<L>2</>:<M>foo</> two\n<P>a.txt</>:<L>5</>:five <M>foo</> <M>foo</>\n<P>b/c.txt</>:<L>1</>:<M>foo</>\n"},
		{"count lines", opts("foo", func(o *grep.Options) { o.Mode = grep.ModeCount }), Config{WithPath: true},
			"a.txt:2\nb/c.txt:1\nbin.dat:1\n"},
		{"count matches, null", opts("foo", func(o *grep.Options) { o.Mode = grep.ModeCount }), Config{WithPath: true, CountMatches: true, Null: true},
			"a.txt\x003\nb/c.txt\x001\nbin.dat\x001\n"},
		{"files with matches", opts("foo", func(o *grep.Options) { o.Mode = grep.ModeFilesWithMatches }), Config{},
			"a.txt\nb/c.txt\nbin.dat\n"},
		{"files with matches, null", opts("foo", func(o *grep.Options) { o.Mode = grep.ModeFilesWithMatches }), Config{Null: true},
			"a.txt\x00b/c.txt\x00bin.dat\x00"},
		{"json", opts("two", nil), Config{JSON: true},
			`{"path":"a.txt","line":2,"offset":4,"text":"foo two","submatches":[{"start":4,"end":7,"text":"two"}]}` + "\n"},
		{"json with context", opts("two", func(o *grep.Options) { o.ContextAfter = 1 }), Config{JSON: true},
			`{"path":"a.txt","line":2,"offset":4,"text":"foo two","submatches":[{"start":4,"end":7,"text":"two"}],"after":[{"line":3,"offset":12,"text":"three"}]}` + "\n"},
		{"json count", opts("foo", func(o *grep.Options) { o.Mode = grep.ModeCount; o.Binary = false }), Config{JSON: true},
			`{"count":2,"matches":3,"path":"a.txt"}` + "\n" + `{"count":1,"matches":1,"path":"b/c.txt"}` + "\n"},
		{"json binary", opts("foo", func(o *grep.Options) { o.Glob = "*.dat" }), Config{JSON: true},
			`{"binary":true,"nulOffset":3,"path":"bin.dat"}` + "\n"},
		{"multiline block", opts(`two\nthree`, nil), Config{LineNumbers: true, Column: true, Crosses: true},
			"2:5:foo two\n3:5:three\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := search(t, files, tc.o, tc.cfg); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestPathEnd(t *testing.T) {
	t.Parallel()
	if New(nil, Config{}).PathEnd() != '\n' || New(nil, Config{Null: true}).PathEnd() != 0 {
		t.Fatal("a path alone ends with a newline, or a NUL with Null")
	}
}

func TestDisplayPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		arg, rel string
		isFile   bool
		want     string
	}{
		{"", "a/b.txt", false, "a/b.txt"},
		{"dir", "b.txt", false, "dir/b.txt"},
		{"dir/", "b.txt", false, "dir/b.txt"},
		{"./dir", "b.txt", false, "./dir/b.txt"},
		{"file.txt", "file.txt", true, "file.txt"},
	} {
		if got := DisplayPath(tc.arg, tc.rel, tc.isFile); got != tc.want {
			t.Errorf("DisplayPath(%q, %q, %v) = %q, want %q", tc.arg, tc.rel, tc.isFile, got, tc.want)
		}
	}
}

func TestOrder(t *testing.T) {
	t.Parallel()
	at := func(h int) time.Time { return time.Date(2024, 1, 1, h, 0, 0, 0, time.UTC) }
	keys := []SortKey{
		{Shown: "a.b"}, {Shown: "a/b", Time: at(3), HasTime: true}, {Shown: "c//z", Time: at(1), HasTime: true},
		{Shown: "c/./y", Time: at(2), HasTime: true},
	}
	order := func(o Order) []string {
		k := slices.Clone(keys)
		slices.SortStableFunc(k, o.Compare)
		var out []string
		for _, x := range k {
			out = append(out, x.Shown)
		}
		return out
	}
	for _, tc := range []struct {
		o     Order
		holds bool
		want  string
	}{
		{Order{}, false, "a/b a.b c/./y c//z"},
		{Order{Key: "path", Reverse: true}, true, "c//z c/./y a.b a/b"},
		{Order{Key: "none"}, false, "a/b a.b c/./y c//z"},
		{Order{Key: "modified"}, true, "c//z c/./y a/b a.b"},
		{Order{Key: "modified", Reverse: true}, true, "a.b a/b c/./y c//z"},
	} {
		got := order(tc.o)
		if tc.o.Key == "none" {
			got = order(Order{}) // none prints in the engine's order: path
		}
		if strings.Join(got, " ") != tc.want || tc.o.Holds() != tc.holds {
			t.Errorf("%+v: %q holds %v, want %q holds %v", tc.o, got, tc.o.Holds(), tc.want, tc.holds)
		}
	}
	if !(Order{Key: "created"}).Timed() || (Order{Key: "path"}).Timed() {
		t.Error("Timed")
	}
}
