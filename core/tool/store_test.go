package tool

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
)

func TestReadCache(t *testing.T) {
	c := NewReadCache()
	c.RecordContiguous("/f", 1, []string{"a", "b", "c"}, 3)
	c.RecordSparse("/f", map[int]string{2: "b"})
	s, ok := c.Get("/f")
	if !ok || len(s.Lines) != 3 || s.TotalLines != 3 {
		t.Fatalf("%+v", s)
	}
	// A conflicting line replaces the snapshot.
	c.RecordSparse("/f", map[int]string{2: "B", 7: "g"})
	s, _ = c.Get("/f")
	if len(s.Lines) != 2 || s.Lines[2] != "B" || s.TotalLines != 0 {
		t.Fatalf("after conflict %+v", s)
	}
	// Agreeing records merge.
	c.RecordContiguous("/f", 3, []string{"c2"}, 0)
	s, _ = c.Get("/f")
	if len(s.Lines) != 3 || s.Lines[3] != "c2" {
		t.Fatalf("merge %+v", s)
	}
	// A different known length conflicts too.
	c.RecordContiguous("/g", 1, []string{"x"}, 5)
	c.RecordContiguous("/g", 1, []string{"x"}, 1)
	if s, _ := c.Get("/g"); s.TotalLines != 1 {
		t.Fatalf("length conflict %+v", s)
	}
	// Lines past a known end conflict.
	c.RecordSparse("/g", map[int]string{4: "q"})
	if s, _ := c.Get("/g"); len(s.Lines) != 1 || s.Lines[4] != "q" {
		t.Fatalf("past end %+v", s)
	}
	// Returned snapshots are copies.
	s, _ = c.Get("/g")
	s.Lines[4] = "mutated"
	if s2, _ := c.Get("/g"); s2.Lines[4] != "q" {
		t.Fatal("Get leaked internal state")
	}
	c.Forget("/g")
	if _, ok := c.Get("/g"); ok {
		t.Fatal("forget")
	}
	c.RecordContiguous("/empty", 1, nil, 0)
	if _, ok := c.Get("/empty"); ok {
		t.Fatal("empty record stored")
	}
}

func TestReadCacheEvictsLeastRecent(t *testing.T) {
	c := NewReadCache()
	for i := range 31 {
		c.RecordSparse(fmt.Sprintf("/p%d", i), map[int]string{1: "x"})
		if i == 0 {
			continue
		}
		c.RecordSparse("/p0", map[int]string{1: "x"}) // keep p0 fresh
	}
	if c.Len() != MaxReadCachePaths {
		t.Fatal(c.Len())
	}
	if _, ok := c.Get("/p0"); !ok {
		t.Fatal("recently recorded path evicted")
	}
	if _, ok := c.Get("/p1"); ok {
		t.Fatal("least recent path kept")
	}
}

func TestReadCacheConcurrent(t *testing.T) {
	c := NewReadCache()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				p := fmt.Sprintf("/p%d", (g*7+i)%40)
				c.RecordContiguous(p, 1, []string{fmt.Sprint(i)}, 0)
				c.Get(p)
			}
		}()
	}
	wg.Wait()
	if c.Len() > MaxReadCachePaths {
		t.Fatal(c.Len())
	}
}

func TestWriteFileAtomicKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.sh")
	os.WriteFile(p, []byte("old"), 0o751)
	if err := WriteFileAtomic(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	if fi.Mode().Perm() != 0o751 || string(b) != "new" {
		t.Fatal(fi.Mode(), string(b))
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatal("temporary file left behind")
	}
}

func TestSettingsAndDisplay(t *testing.T) {
	cfg, err := config.Load(config.LoadOptions{
		Cwd: t.TempDir(), Home: t.TempDir(), NoFiles: true,
		Environ: []string{config.EnvEditVariant + "=Replace", config.EnvReadLimit + "=9000", config.EnvHashlineSeparator + "=>>", config.EnvMaxASTFiles + "=5"},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEnv(t.TempDir())
	if !reflect.DeepEqual(e.Settings, DefaultSettings()) || e.Settings.EditMode != EditHashline || e.Settings.OpenEndedLimit() != 500 || e.Settings.ReadLineNumbers || e.Settings.Separator() != "~" {
		t.Fatalf("defaults %+v", e.Settings)
	}
	e.Settings = SettingsFrom(cfg)
	if e.Settings.EditMode != EditReplace || e.Settings.OpenEndedLimit() != 3000 || e.Settings.Separator() != ">>" || e.Settings.ASTMaxFiles != 5 {
		t.Fatalf("%+v", e.Settings)
	}
	e.Settings.ReadLineNumbers = true
	if e.DisplayMode(false, false) != DisplayLineNumbers || e.DisplayMode(true, false) != DisplayPlain {
		t.Fatal("replace mode display")
	}
	e.Settings.EditMode = EditHashline
	if e.DisplayMode(false, false) != DisplayHashline || e.DisplayMode(false, true) != DisplayLineNumbers {
		t.Fatal("hashline display")
	}
	e.EditEnabled = false
	if e.DisplayMode(false, false) != DisplayLineNumbers {
		t.Fatal("no edit tool")
	}
	if got := DisplayLineNumbers.FormatLines([]string{"a\r", "b"}, 9); got != "9|a\n10|b" {
		t.Fatal(got)
	}
	if _, ok := ParseEditMode("bogus"); ok {
		t.Fatal("invalid variant accepted")
	}
	if e.DisplayPath(filepath.Join(e.Cwd, "a", "b")) != "a/b" || e.DisplayPath("/elsewhere") != "/elsewhere" {
		t.Fatal("DisplayPath")
	}
	if e.Resolve("x/../y") != filepath.Join(e.Cwd, "y") {
		t.Fatal("Resolve")
	}
}

func TestOutputSink(t *testing.T) {
	store := artifact.NewStore(filepath.Join(t.TempDir(), "a"))
	s := NewOutputSink(store, "bash")
	s.Write([]byte("small\n"))
	sum, err := s.Close()
	if err != nil || sum.Truncated || sum.Output != "small\n" || sum.ArtifactID != "" || sum.TotalLines != 1 {
		t.Fatalf("%+v %v", sum, err)
	}
	s = NewOutputSink(store, "bash")
	var all strings.Builder
	for i := range 20000 {
		line := fmt.Sprintf("line %d é\n", i)
		all.WriteString(line)
		s.Write([]byte(line))
	}
	sum, err = s.Close()
	if err != nil || !sum.Truncated || sum.ArtifactID != "0" || len(sum.Output) > DefaultMaxBytes || !strings.HasSuffix(all.String(), sum.Output) {
		t.Fatalf("%+v %v", SinkSummary{Truncated: sum.Truncated, ArtifactID: sum.ArtifactID, TotalBytes: sum.TotalBytes}, err)
	}
	if full, _ := store.Read(sum.ArtifactID); full != all.String() || sum.TotalLines != 20000 {
		t.Fatalf("artifact has %d bytes, want %d", len(full), all.Len())
	}
	if FullOutputNotice("0") != "Full: artifact://0" {
		t.Fatal(FullOutputNotice("0"))
	}
	// Without a store only the tail survives.
	s = NewOutputSink(nil, "bash")
	s.Write(bytes.Repeat([]byte("x"), DefaultMaxBytes+10))
	if sum, err := s.Close(); err != nil || !sum.Truncated || sum.ArtifactID != "" || len(sum.Output) != DefaultMaxBytes {
		t.Fatalf("%v %v", sum.Truncated, err)
	}
}

// A capped sink keeps the output's first and last halves in the artifact,
// cut at line ends, with a line between them naming what was dropped,
// whether the cap falls in what was seen before the spill or later; the
// counts and the in-memory tail still cover everything; output the cap
// holds is saved whole.
func TestOutputSinkArtifactCap(t *testing.T) {
	store := artifact.NewStore(filepath.Join(t.TempDir(), "a"))
	for _, limit := range []int64{1000, DefaultMaxBytes + 5000} {
		s := NewOutputSink(store, "bash")
		s.LimitArtifact(limit)
		var all strings.Builder
		for i := range 20000 {
			line := fmt.Sprintf("line %d\n", i)
			all.WriteString(line)
			s.Write([]byte(line))
		}
		sum, err := s.Close()
		if err != nil || sum.TotalBytes != int64(all.Len()) || sum.TotalLines != 20000 || !strings.HasSuffix(all.String(), sum.Output) {
			t.Fatalf("limit %d: total %d, %v", limit, sum.TotalBytes, err)
		}
		full, _ := store.Read(sum.ArtifactID)
		head, rest, ok := strings.Cut(full, "\n[")
		note, tail, ok2 := strings.Cut(rest, "]\n")
		if !ok || !ok2 || int64(len(head)+1+len(tail)) > limit || int64(len(head)+1) < limit/2-20 || int64(len(tail)) < limit/2-20 {
			t.Fatalf("limit %d: artifact of %d bytes:\n%.300s", limit, len(full), full)
		}
		if !strings.HasPrefix(all.String(), head+"\n") || !strings.HasSuffix(all.String(), "\n"+tail) || !strings.HasPrefix(tail, "line ") {
			t.Fatalf("limit %d: not the head and tail of the output:\n%.200s … %.200s", limit, head, tail)
		}
		dropped := int64(all.Len() - len(head) - 1 - len(tail))
		lines := int64(20000 - strings.Count(head, "\n") - 1 - strings.Count(tail, "\n"))
		want := fmt.Sprintf("%d bytes (%d lines) of output dropped here: past the artifact cap of %s only the first %s and the last %s are kept", dropped, lines, FormatSize(limit), FormatSize(int64(len(head)+1)), FormatSize(int64(len(tail))))
		if note != want || sum.ArtifactDroppedBytes != dropped || sum.ArtifactDroppedLines != lines {
			t.Fatalf("limit %d: %q (%d, %d), want %q", limit, note, sum.ArtifactDroppedBytes, sum.ArtifactDroppedLines, want)
		}
	}
	// Output the cap holds, even when its head was cut at a line end
	// before the middle, is saved whole.
	for _, size := range []int{DefaultMaxBytes * 2, 1 << 20} {
		s := NewOutputSink(store, "bash")
		s.LimitArtifact(1 << 20)
		var all strings.Builder
		for all.Len() < size-1000 {
			line := strings.Repeat("y", all.Len()%97) + "\n"
			all.WriteString(line)
			s.Write([]byte(line))
		}
		sum, err := s.Close()
		full, _ := store.Read(sum.ArtifactID)
		if err != nil || sum.ArtifactID == "" || sum.ArtifactDroppedBytes != 0 || full != all.String() {
			t.Fatalf("size %d: dropped %d, artifact %d of %d bytes, %v", size, sum.ArtifactDroppedBytes, len(full), all.Len(), err)
		}
	}
}

// A stream far larger than the cap keeps memory and disk bounded while it
// is written: the artifacts directory never holds much more than the cap
// (the head and the tail window), nor does the heap grow with the stream.
func TestOutputSinkBoundedUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a")
	store := artifact.NewStore(dir)
	const limit = 1 << 20
	s := NewOutputSink(store, "bash")
	s.LimitArtifact(limit)
	chunk := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), 1024) // 64 KiB
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var maxDisk int64
	var maxHeap uint64
	const chunks = 4096 // 256 MiB in all
	for i := range chunks {
		s.Write(chunk)
		if i%256 == 0 {
			maxDisk = max(maxDisk, dirSize(t, dir))
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			maxHeap = max(maxHeap, m.HeapAlloc)
		}
	}
	sum, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(chunks * len(chunk)); sum.TotalBytes != want || sum.ArtifactDroppedBytes < want-limit || sum.ArtifactDroppedLines < (want-limit)/64 {
		t.Fatalf("%+v", sum)
	}
	if final := dirSize(t, dir); final > limit+300 || maxDisk > limit+300 {
		t.Fatalf("artifacts directory up to %d bytes, %d at the end; cap %d", maxDisk, final, limit)
	}
	if grown := int64(maxHeap) - int64(before.HeapAlloc); grown > 8<<20 {
		t.Fatalf("the heap grew by %d bytes while 256 MiB were written", grown)
	}
}

// dirSize sums the sizes of the files in dir (0 when it does not exist);
// an unlinked file still open counts by what its holder's descriptor
// shows, so the sink's hidden window is looked up through /proc too.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err != nil || !strings.HasPrefix(target, dir+"/") || !strings.HasSuffix(target, " (deleted)") {
			continue
		}
		if fi, err := os.Stat(filepath.Join("/proc/self/fd", fd.Name())); err == nil {
			n += fi.Size()
		}
	}
	return n
}
