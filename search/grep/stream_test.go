package grep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unsafe"

	"github.com/gopi-agent/gopi/fscache"
)

// gatedScanner streams the first entries of a real walk, then holds the
// walk until gate is closed: results that arrive while it is held prove
// that the search does not wait for the walk to end.
type gatedScanner struct {
	*fscache.Cache
	after int           // entries handed over before the walk is held
	gate  chan struct{} // closed to let the walk go on
	idles int
}

func (g *gatedScanner) WalkStream(ctx context.Context, root string, opts fscache.Options, noStat bool, fn func(fscache.Entry) error, idle func()) error {
	n := 0
	return g.Cache.WalkStream(ctx, root, opts, noStat, func(e fscache.Entry) error {
		n++
		if n == g.after+1 {
			g.idles++
			idle() // what the walk does before it waits for a listing
			select {
			case <-g.gate:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return fn(e)
	}, idle)
}

// ForceRescan is the whole walk at once: it cannot start before the gate
// opens.
func (g *gatedScanner) ForceRescan(ctx context.Context, root string, opts fscache.Options, store bool) (*fscache.Scan, error) {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Cache.ForceRescan(ctx, root, opts, store)
}

func TestStreamDeliversBeforeTheWalkEnds(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%03d/f.txt", i)] = "needle\n"
	}
	root := writeTree(t, files)
	g := &gatedScanner{Cache: fscache.New(fscache.DefaultPolicy), after: 6, gate: make(chan struct{})}

	first := make(chan string, 1)
	done := make(chan error, 1)
	var got []string
	go func() {
		o := DefaultOptions("needle", root)
		o.ScanCache = g
		_, err := Stream(context.Background(), o, func(fr *FileResult) error {
			if len(got) == 0 {
				first <- fr.Path
			}
			got = append(got, fr.Path)
			return nil
		})
		done <- err
	}()
	select {
	case p := <-first:
		if p != "d000/f.txt" {
			t.Errorf("first result %q, want d000/f.txt", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no result while the walk was held: the search waits for the whole walk")
	}
	close(g.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != 200 || got[199] != "d199/f.txt" {
		t.Fatalf("%d results, last %q", len(got), got[len(got)-1])
	}
}

// A caller that stops at its first result ends the walk too.
func TestStreamStopEndsTheWalk(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 100 {
		files[fmt.Sprintf("d%03d/f.txt", i)] = "needle\n"
	}
	root := writeTree(t, files)
	g := &gatedScanner{Cache: fscache.New(fscache.DefaultPolicy), after: 50, gate: make(chan struct{})} // never opened
	stop := errors.New("enough")
	done := make(chan error, 1)
	go func() {
		o := DefaultOptions("needle", root)
		o.ScanCache = g
		_, err := Stream(context.Background(), o, func(*FileResult) error { return stop })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, stop) {
			t.Fatalf("err %v, want the caller's", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search did not end after its caller stopped")
	}
}

// Files found by a streamed walk come without a size: a long one is read
// on in blocks from where the first read stopped, with the results of a
// whole read; the size limit holds on both paths.
func TestUnsizedFilesFromTheWalk(t *testing.T) {
	t.Parallel()
	var text strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&text, "line %d %s\n", i, strings.Repeat("ab", i%50))
	}
	root := writeTree(t, map[string]string{"big.txt": text.String(), "small.txt": "line 7 ab\n"})
	lines := func(o Options) []string {
		var out []string
		if _, err := Stream(context.Background(), o, func(fr *FileResult) error {
			for _, m := range fr.Matches {
				out = append(out, fmt.Sprintf("%s:%d:%s", fr.Path, m.Line, m.Text))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := lines(DefaultOptions(`7 (ab)+$`, root))
	if len(want) < 30 {
		t.Fatalf("only %d matches", len(want))
	}
	if got := lines(withBlocks(DefaultOptions(`7 (ab)+$`, root), 64, 256)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("read on in blocks: %d matches, want %d\n%v", len(got), len(want), got)
	}
	for _, limit := range []int64{64, 1 << 20} {
		o := withBlocks(DefaultOptions("line", root), limit, 256)
		o.MaxFileSize = 100
		res := search(t, o)
		if res.FilesSkipped != 1 || len(res.Skipped) != 1 || !errors.Is(res.Skipped[0].Err, ErrTooLarge) || res.FilesWithMatches != 1 {
			t.Errorf("whole-file limit %d: %+v", limit, res)
		}
	}
}

// A pipe that delivers a line at a time gets each line searched and
// reported as it comes (`tail -f log | gopi grep x`), not when a block
// fills or the stream ends. A first line shorter than 4 bytes too: the
// first read waited for 4 bytes (to see a byte-order mark), so `x\n` from
// a writer that stays open was held until more came.
func TestStreamReaderReportsEachLineAsItComes(t *testing.T) {
	t.Parallel()
	reportsAsWritten(t, "match", []string{"noise\nmatch 0\n", "noise\nmatch 1\n", "noise\nmatch 2\n"}, []string{"match 0", "match 1", "match 2"})
	reportsAsWritten(t, "x", []string{"x\n"}, []string{"x"})
}

// reportsAsWritten writes each of writes into a pipe that stays open and
// checks that StreamReader reports the matching line want[i] before the
// next write.
func reportsAsWritten(t *testing.T, pattern string, writes, want []string) {
	t.Helper()
	pr, pw := io.Pipe()
	got := make(chan string, len(want))
	done := make(chan error, 1)
	go func() {
		_, err := StreamReader(context.Background(), DefaultOptions(pattern, ""), "<stdin>", pr, func(fr *FileResult) error {
			for _, m := range fr.Matches {
				got <- m.Text
			}
			return nil
		})
		done <- err
	}()
	for i, w := range writes {
		if _, err := pw.Write([]byte(w)); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-got:
			if s != want[i] {
				t.Fatalf("got %q, want %q", s, want[i])
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q not reported while the stream stays open", want[i])
		}
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// endless yields "y\n" forever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) &^ 1, nil
}

// Context lines no longer need the whole text: from a stream that never
// ends (`yes | gopi grep -C1 y`) matches come with their context as they
// are read, and memory stays at a few blocks. (It used to be read whole,
// up to SpecialFileCap, before the first match was reported.)
func TestStreamReaderWithContextStreams(t *testing.T) {
	// The heap follows the block: 32,768 lines that all match.
	o := withBlocks(DefaultOptions("y", ""), 0, 64<<10)
	o.ContextBefore, o.ContextAfter = 1, 1
	stop := errors.New("enough")
	// The heap in use, sampled as the matches come, stays at a few
	// blocks' worth whatever the length of the stream (reading it whole
	// up to the cap held 64 MiB and the records of 32 M lines).
	// Collected first: the garbage of the tests before (the parallel
	// ones wait, so the memory tests run back to back) is not this one's.
	runtime.GC()
	var peak uint64
	got, next := 0, 0
	_, err := StreamReader(context.Background(), o, "<stdin>", endless{}, func(fr *FileResult) error {
		got += len(fr.Matches)
		if got >= next {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			next += 100_000
		}
		if got >= 1_000_000 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || got < 1_000_000 {
		t.Fatalf("%d matches, err %v", got, err)
	}
	t.Logf("peak heap in use %d MiB", peak>>20)
	if peak > 96<<20 {
		t.Fatalf("%d MiB of heap in use while streaming", peak>>20)
	}
}

// A named binary file read in blocks counts its lines as they are: a long
// run of NUL bytes is part of the line it is in (ripgrep counts 2 here).
func TestBinaryLongLineCountsOnce(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"z.bin": strings.Repeat("\x00", 300_000) + "x\nx\n"})
	o := withBlocks(DefaultOptions("^", filepath.Join(dir, "z.bin")), 64, 4096)
	o.Mode = ModeCount
	sum, err := Stream(context.Background(), o, func(*FileResult) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if sum.TotalMatches != 2 {
		t.Errorf("%d matching lines, want 2", sum.TotalMatches)
	}
}

// repeatReader yields n bytes of b, then tail, in reads of at most chunk
// bytes: a stream whose first line is n bytes long.
type repeatReader struct {
	b     byte
	n     int
	tail  string
	chunk int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if len(p) > r.chunk {
		p = p[:r.chunk]
	}
	if r.n > 0 {
		k := min(len(p), r.n)
		for i := range k {
			p[i] = r.b
		}
		r.n -= k
		return k, nil
	}
	if r.tail == "" {
		return 0, io.EOF
	}
	k := copy(p, r.tail)
	r.tail = r.tail[k:]
	return k, nil
}

// A long line that arrives in small reads is looked at once, not again
// after every read: a 2 MiB line in 16-byte reads took a quadratic 137 GB
// of newline scanning before (minutes); the deadline only ends a
// regression.
func TestStreamReaderLongLineInSmallReads(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o := DefaultOptions("ax", "")
	o.Mode = ModeCount
	sum, err := StreamReader(ctx, o, "<stdin>", &repeatReader{b: 'a', n: 2 << 20, tail: "x\nax\n", chunk: 16}, func(*FileResult) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if sum.TotalMatches != 2 {
		t.Fatalf("%d matching lines, want 2", sum.TotalMatches)
	}
}

// A stream holding a line that never ends is searched up to SpecialFileCap
// of it and then reported as cut, with one buffer of about the cap (it grew
// without bound, by doubling).
func TestStreamReaderCutsAnEndlessLine(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	o := DefaultOptions("a", "")
	o.Mode = ModeCount
	lines := Needs{CountLinesOnly: true} // as -c asks: lines, not every 'a'
	sum, err := StreamReaderTo(context.Background(), o, "<stdin>", &repeatReader{b: 'a', n: SpecialFileCap + 4<<20, tail: "\na\n", chunk: 64 << 10}, needing(lines, func(*FileResult) error { return nil }))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Skipped) != 1 || !errors.Is(sum.Skipped[0].Err, ErrTooLarge) || !strings.Contains(sum.Skipped[0].Err.Error(), "line longer than 64 MiB") {
		t.Fatalf("skipped %+v, want the stream reported as cut at its long line", sum.Skipped)
	}
	if sum.TotalMatches != 1 {
		t.Errorf("%d matching lines, want 1 (the long line's first 64 MiB)", sum.TotalMatches)
	}
	if grown := int64(after.TotalAlloc - before.TotalAlloc); grown > SpecialFileCap+SpecialFileCap/2 {
		t.Errorf("allocated %d MiB for a cap of %d MiB", grown>>20, SpecialFileCap>>20)
	}
}

// A UTF-8 byte-order mark is dropped even when the first line is longer
// than the first read: it stayed in the text when more had to be read.
func TestStreamReaderBOMBeforeALongFirstLine(t *testing.T) {
	t.Parallel()
	o := DefaultOptions("^import", "")
	var texts []string
	_, err := StreamReader(context.Background(), o, "<stdin>", iotest.OneByteReader(strings.NewReader("\ufeffimport x\nimport y\n")), func(fr *FileResult) error {
		for _, m := range fr.Matches {
			texts = append(texts, m.Text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(texts, "|") != "import x|import y" {
		t.Fatalf("matched %q, want both lines without the mark", texts)
	}
}

// A regular file given as standard input (`gopi grep x < file`) ends, so it
// is searched as the file itself would be: a line longer than
// SpecialFileCap does not cut it.
func TestStreamReaderRegularFileIsNotCut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, &repeatReader{b: 'a', n: SpecialFileCap + 1<<20, tail: "\nx\n", chunk: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := DefaultOptions("x", "")
	o.Mode = ModeCount
	sum, err := StreamReaderTo(context.Background(), o, "<stdin>", f, needing(Needs{CountLinesOnly: true}, func(*FileResult) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Skipped) != 0 || sum.TotalMatches != 1 {
		t.Fatalf("skipped %+v, %d matching lines; want the whole file searched, 1 line", sum.Skipped, sum.TotalMatches)
	}
}

// A large text searched with context lines is read a block at a time,
// with only the lines later matches may need kept between blocks
// (contextStream); what it reports must be what the whole text searched at
// once gives: the same matches, spans, counts and context lines, never a
// context line twice and never a match shown as context, whatever the
// block size, context, -v and -m.
func TestContextInBlocksMatchesWhole(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"foo", "bar", "x", "", "foo bar", "zz"}
	flat := func(results []*FileResult) string {
		var b strings.Builder
		for _, fr := range results {
			fmt.Fprintf(&b, "file lines=%d count=%d\n", fr.Lines, fr.Count)
			for _, m := range fr.Matches {
				for _, c := range m.Before {
					fmt.Fprintf(&b, "%d-%d-%s\n", c.Line, c.Offset, c.Text)
				}
				fmt.Fprintf(&b, "%d:%d:%s %v\n", m.Line, m.Offset, m.Text, m.Spans)
				for _, c := range m.After {
					fmt.Fprintf(&b, "%d-%d-%s\n", c.Line, c.Offset, c.Text)
				}
			}
		}
		return b.String()
	}
	// Counts and match lines summed over pieces; the listing itself.
	total := func(results []*FileResult) (lines, count int, listing string) {
		var all FileResult
		for _, fr := range results {
			lines += fr.Lines
			count += fr.Count
			all.Matches = append(all.Matches, fr.Matches...)
		}
		return lines, count, flat([]*FileResult{&all})
	}
	for round := range 300 {
		var text strings.Builder
		for range 20 + rng.IntN(200) {
			text.WriteString(words[rng.IntN(len(words))])
			text.WriteByte('\n')
		}
		content := text.String()
		if rng.IntN(4) == 0 {
			content = strings.TrimSuffix(content, "\n") // a last line without a newline
		}
		dir := writeTree(t, map[string]string{"f.txt": content})
		o := DefaultOptions([]string{"foo", "x", "^$", "bar"}[rng.IntN(4)], filepath.Join(dir, "f.txt"))
		o.ContextBefore, o.ContextAfter = rng.IntN(4), rng.IntN(4)
		if o.ContextBefore+o.ContextAfter == 0 {
			o.ContextAfter = 1
		}
		o.Invert = rng.IntN(4) == 0
		if rng.IntN(3) == 0 {
			o.MaxCount = 1 + rng.IntN(20)
		}
		run := func(limit int64, block int) []*FileResult {
			var got []*FileResult
			if _, err := Stream(context.Background(), withBlocks(o, limit, block), func(fr *FileResult) error {
				got = append(got, fr)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			return got
		}
		wl, wc, want := total(run(0, 0))              // read whole, one result
		gl, gc, got := total(run(16, 2+rng.IntN(64))) // in blocks, context kept between them
		if got != want || gl != wl || gc != wc {
			t.Fatalf("round %d, %+v:\npieces (lines %d, count %d):\n%s\nwhole (lines %d, count %d):\n%s", round, o, gl, gc, got, wl, wc, want)
		}
	}
}

// A NUL byte after the first block: a file found by the walk stops there
// (ripgrep's "quit"), a named one (or any with Options.Binary) shows its
// matches before the NUL line, counts the rest, and ends with a binary
// result when anything matched, before or after, as ripgrep does without
// a memory map. Its context search ended silently at the NUL before.
func TestNULAfterTheFirstBlock(t *testing.T) {
	t.Parallel()
	filler := strings.Repeat("filler\n", 100)
	texts := map[string]string{
		"before.txt": "MATCH a\n" + filler + "x\x00y\nfiller\n",
		"after.txt":  filler + "x\x00y\nMATCH b\n",
		"both.txt":   "MATCH c1\n" + filler + "x\x00y\nMATCH c2\n",
		"none.txt":   filler + "x\x00y\n",
	}
	dir := writeTree(t, texts)
	type want struct {
		lines  []int // content lines shown
		binary bool  // a binary result came
		total  int
	}
	for _, tc := range []struct {
		name, file string
		binary     bool // Options.Binary on a walk
		context    int
		want       want
	}{
		{"named before", "before.txt", false, 0, want{[]int{1}, true, 1}},
		{"named after", "after.txt", false, 0, want{nil, true, 1}},
		{"named both", "both.txt", false, 0, want{[]int{1}, true, 2}},
		{"named none", "none.txt", false, 0, want{nil, false, 0}},
		{"named both, context", "both.txt", false, 1, want{[]int{1}, true, 2}},
		{"named after, context", "after.txt", false, 1, want{nil, true, 1}},
		{"walked both", "", false, 0, want{[]int{1}, false, 1}},
		{"walked both, binary", "", true, 0, want{[]int{1}, true, 2}},
	} {
		path := filepath.Join(dir, tc.file)
		o := withBlocks(DefaultOptions("MATCH", path), 64, 256)
		if tc.file == "" {
			o = withBlocks(DefaultOptions("MATCH", dir), 64, 256)
			o.Glob = "both.txt"
		}
		o.Binary = tc.binary
		o.ContextBefore, o.ContextAfter = tc.context, tc.context
		var got want
		sum, err := Stream(context.Background(), o, func(fr *FileResult) error {
			for _, m := range fr.Matches {
				got.lines = append(got.lines, m.Line)
			}
			got.binary = got.binary || fr.Binary
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got.total = sum.TotalMatches
		if !slices.Equal(got.lines, tc.want.lines) || got.binary != tc.want.binary || got.total != tc.want.total {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Files-with-matches mode with FirstMatchEnough reports a stream at its
// first matching line and reads no further: `gopi grep -l` on a FIFO whose
// writer goes on (here: for ever) used to wait for its end.
func TestFirstMatchEnoughEndsAStream(t *testing.T) {
	t.Parallel()
	o := DefaultOptions("y", "")
	o.Mode = ModeFilesWithMatches
	done := make(chan error, 1)
	go func() {
		_, err := StreamReaderTo(context.Background(), o, "<stdin>", endless{}, needing(Needs{FirstMatchEnough: true}, func(fr *FileResult) error {
			if fr.Lines != 1 {
				return fmt.Errorf("lines %d, want 1", fr.Lines)
			}
			return nil
		}))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still reading an endless stream after its first match")
	}
}

// A search of a long Options.Files list (gopi grep --sort over a whole
// disk) makes each file's candidate as it is handed over, not all of them
// before the first is searched: that doubled what the list holds.
func TestStreamFilesListMadeIntoCandidatesAsItGoes(t *testing.T) {
	const n = 200_000
	path := filepath.Join(writeTree(t, map[string]string{"f.txt": "needle\n"}), "f.txt")
	files := make([]FileRef, n)
	for i := range files {
		files[i] = FileRef{Path: path}
	}
	o := DefaultOptions("needle", "")
	o.Files, o.Mode = files, ModeCount
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var grown uint64
	stop := errors.New("measured")
	seen := 0
	_, err := Stream(context.Background(), o, func(*FileResult) error {
		if seen++; seen == 1000 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			grown = ms.HeapAlloc - min(base, ms.HeapAlloc)
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("search ended with %v after %d files", err, seen)
	}
	candidates := uint64(n) * uint64(unsafe.Sizeof(candidate{}))
	if grown > candidates/4 {
		t.Fatalf("heap grew by %d KiB during the search of %d listed files; their candidates take %d KiB", grown>>10, n, candidates>>10)
	}
}
