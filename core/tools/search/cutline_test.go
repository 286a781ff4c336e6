package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
)

// cut is a line as the search shows it: its first 1024 characters and "…".
func cut(line string) string {
	c, _ := tool.TruncateLine(line, tool.DefaultMaxColumn)
	return c
}

// TestCutLineAnchors checks that a line shown cut is anchored with the
// hash of the whole line, read from the file without holding the file or
// the line: a file that is one 256 MiB line cost 830 MB to anchor, read
// whole and split into lines.
func TestCutLineAnchors(t *testing.T) {
	dir := t.TempDir()
	// long.txt: a byte-order mark, a cut match, a cut context line and a
	// whole one, CRLF terminators; multi.txt: a multiline match whose
	// text is cut (counting the characters of both lines); blank.txt: a
	// cut line that is white space after the match (hashed with its
	// number, having no letter or digit).
	line1 := "zzz " + strings.Repeat("wörd ", 4<<20) + "\t "
	line2 := strings.Repeat("-", 10<<20)
	line4 := "second " + strings.Repeat("y", 100_000)
	files := map[string]string{
		"long.txt":  "\uFEFF" + line1 + "\r\n" + line2 + "\r\ntail\r\n",
		"multi.txt": "first\r\n" + line4 + "\nlast",
		"blank.txt": "\n\n" + "…" + strings.Repeat(" ", 300_000) + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := tool.NewEnv(dir)
	env.Settings.SearchContextBefore, env.Settings.SearchContextAfter = 1, 3
	blank := "…" + strings.Repeat(" ", 300_000)
	for _, tc := range []struct{ args, want string }{
		{`{"pattern":"zzz","paths":["long.txt"]}`, "*" + hashline.Anchor(1, line1) + "|" + cut(line1) +
			"\n " + hashline.Anchor(2, line2) + "|" + cut(line2) + "\n " + hashline.Anchor(3, "tail") + "|tail"},
		{`{"pattern":"first\\r?\\nsecond","paths":["multi.txt"]}`, "*" + hashline.Anchor(1, "first") + "|first" +
			"\n*" + hashline.Anchor(2, line4) + "|" + strings.TrimPrefix(cut("first\r\n"+line4), "first\r\n") + "\n " + hashline.Anchor(3, "last") + "|last"},
		{`{"pattern":"^…","paths":["blank.txt"]}`, " " + hashline.Anchor(2, "") + "|\n*" + hashline.Anchor(3, blank) + "|" + cut(blank)},
	} {
		res, err := tool.Run(context.Background(), New(env), json.RawMessage(tc.args), nil)
		if err != nil || res.IsError {
			t.Fatal(res.FirstText(), err)
		}
		if got := res.FirstText(); got != tc.want {
			t.Errorf("%s:\n got %.400q\nwant %.400q", tc.args, got, tc.want)
		}
	}

	// The render step alone, on the engine's results: it reads the cut
	// lines it anchors, not the file.
	tl := New(env).(*Tool)
	targets, _, err := tl.resolveTargets([]string{"long.txt"})
	if err != nil {
		t.Fatal(err)
	}
	found, err := tl.run(context.Background(), query{pattern: "zzz", gitignore: true, before: 1, after: 3}, targets)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := tl.render(found, targets, nil)
	runtime.ReadMemStats(&after)
	if !strings.HasPrefix(res.FirstText(), "*"+hashline.Anchor(1, line1)+"|") {
		t.Fatalf("render: %.200q", res.FirstText())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("rendering 3 lines of a %d MiB file allocated %d KiB", len(files["long.txt"])>>20, alloc>>10)
	}
}

// TestLineSourceFallback checks how a cut line is found when the engine's
// offset does not lead to it (the file changed, or its text was UTF-16
// and transcoded): by its number, as in the file on disk, and not at all
// when the file no longer has it.
func TestLineSourceFallback(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	utf8Path, utf16Path := filepath.Join(dir, "a.txt"), filepath.Join(dir, "w.txt")
	os.WriteFile(utf8Path, []byte("\uFEFFone\r\ntwo\nthree"), 0o644)
	utf16 := "\xff\xfeo\x00n\x00e\x00\n\x00t\x00w\x00o\x00"
	os.WriteFile(utf16Path, []byte(utf16), 0o644)
	for _, tc := range []struct {
		path   string
		n      int
		offset int64
		shown  string
		want   string // the text hashed; "-" for no line
	}{
		{utf8Path, 1, 0, "one", "one"},                      // at the offset, after the byte-order mark
		{utf8Path, 2, 0, "tw…", "two"},                      // the offset leads to another line
		{utf8Path, 3, 999, "three", "three"},                // past the end
		{utf8Path, 4, 999, "x", "-"},                        // no such line
		{utf16Path, 1, 0, "one", "\xff\xfeo\x00n\x00e\x00"}, // as the file's bytes
	} {
		s := &lineSource{abs: tc.path}
		sum, ok := s.hash(tc.n, tc.offset, 0, tc.shown)
		s.close()
		switch {
		case tc.want == "-" && ok:
			t.Errorf("%s line %d: hash %s, want none", tc.path, tc.n, sum)
		case tc.want != "-" && (!ok || sum != hashline.LineHash(tc.n, tc.want)):
			t.Errorf("%s line %d: hash %s %v, want %s", tc.path, tc.n, sum, ok, hashline.LineHash(tc.n, tc.want))
		}
	}
}
