package read

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
)

// TestReadLongLinesBounded reads files whose lines are tens of megabytes:
// only the first 1024 characters of such a line are shown, so a read must
// not hold the line (a 256 MiB line cost 1.2 GB), while its anchor is
// still the hash of the whole line and the rest of the output is as for a
// line held whole.
func TestReadLongLinesBounded(t *testing.T) {
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	// Line 1: a byte-order mark, text and trailing white space before a
	// CRLF; line 3: only Unicode white space, hashed with its number.
	line1 := strings.Repeat("héllo wörld ", 2<<20) + " \t"
	line3 := strings.Repeat("\u3000", 3<<20)
	content := "\uFEFF" + line1 + "\r\nshort\n" + line3 + "\r\nend"
	path := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := func(s string) string { c, _ := tool.TruncateLine(s, tool.DefaultMaxColumn); return c }
	notice := func(n string) string {
		return "\n[Line " + n + " is too long to show whole; it was cut to 1024 characters.]"
	}
	// A cut line costs what is shown of it, so the window goes on past it
	// (it used to stop before the next long line, and ":4" then showed
	// line 3 alone and asked for ":4" again).
	row1 := hashline.Anchor(1, line1) + "|" + cut(line1)
	row2 := hashline.Anchor(2, "short") + "|short"
	row3 := hashline.Anchor(3, line3) + "|" + cut(line3)
	row4 := hashline.Anchor(4, "end") + "|end"
	for _, tc := range []struct{ sel, want string }{
		{"", row1 + "\n" + row2 + "\n" + row3 + "\n" + row4 + notice("1") + notice("3")},
		{":4", row3 + "\n" + row4 + notice("3")},
		{":3", row2 + "\n" + row3 + "\n" + row4 + notice("3")},
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := call(t, env, "long.txt"+tc.sel)
		runtime.ReadMemStats(&after)
		if got := res.FirstText(); got != tc.want {
			t.Errorf("long.txt%s:\n got %.300q…%.300q\nwant %.300q…%.300q", tc.sel, got, got[max(0, len(got)-300):], tc.want, tc.want[max(0, len(tc.want)-300):])
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
			t.Errorf("long.txt%s allocated %d MiB for a file of %d MiB", tc.sel, alloc>>20, len(content)>>20)
		}
	}
	// Lines shown cut are not recorded: the model has not seen them.
	snap, ok := env.ReadCache.Get(path)
	if _, cut1 := snap.Lines[1]; !ok || snap.Lines[2] != "short" || snap.Lines[4] != "end" || cut1 || len(snap.Lines) != 2 {
		t.Fatalf("read cache: %d lines, line 2 %q", len(snap.Lines), snap.Lines[2])
	}
}

// TestReadCutLineNotRecorded: a line just short of the long-line threshold
// is held whole but shown cut; it is not recorded as seen either.
func TestReadCutLineNotRecorded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	long := strings.Repeat("x", tool.DefaultMaxBytes-10)
	path := filepath.Join(dir, "near.txt")
	if err := os.WriteFile(path, []byte("a\n"+long+"\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	call(t, env, "near.txt")
	snap, ok := env.ReadCache.Get(path)
	if _, seen := snap.Lines[2]; !ok || seen || snap.Lines[1] != "a" || snap.Lines[3] != "b" {
		t.Fatalf("read cache: %d lines, line 2 recorded %v", len(snap.Lines), seen)
	}
}
