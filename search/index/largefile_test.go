package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// largeText is a text over wholeReadMax whose words cross the chunk
// boundaries (a line is 17 bytes; 1 MiB is no multiple of it).
func largeText(word string) string {
	var b strings.Builder
	for i := 0; b.Len() <= wholeReadMax+3*largeChunk/2; i++ {
		b.WriteString(word)
		b.WriteString(" abcdefghij\n"[:12-i%5])
	}
	return b.String()
}

// A file over wholeReadMax is indexed from chunks with exactly the
// trigrams a whole read finds, and one with a NUL after its first chunk
// is not indexed at all (searched directly, as a binary file).
func TestLargeFileTrigramsAsWhole(t *testing.T) {
	root := t.TempDir()
	text := largeText("xyzzy_plugh")
	abs := filepath.Join(root, "large.h")
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	o := &Options{Root: root}
	set := newTrigramSet()
	want := slices.Clone(set.add([]byte(text)))
	slices.Sort(want)
	f := readOne(o, "large.h", &fileReader{}, set)
	if !f.ok || !f.indexed {
		t.Fatalf("large file not indexed: %+v", f)
	}
	got := slices.Clone(f.tris)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("chunked read found %d trigrams, a whole read %d", len(got), len(want))
	}
	bin := []byte(text)
	bin[largeChunk+10] = 0
	if err := os.WriteFile(abs, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	if f := readOne(o, "large.h", &fileReader{}, set); !f.ok || f.indexed {
		t.Fatalf("a large file with a NUL in its second chunk was indexed: %+v", f)
	}
	// Changed between its stat and the end of its read: never trusted.
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	o.afterStat = func(string) {
		if err := os.WriteFile(abs, []byte(text[:wholeReadMax+10]), 0o644); err != nil {
			t.Error(err)
		}
	}
	if f := readOne(o, "large.h", &fileReader{}, set); !f.ok || f.indexed || f.st.mtime != -1 {
		t.Fatalf("a large file truncated while read: %+v, want it unindexed with a time that never matches", f)
	}
}

// Queries over a tree with a large file answer as the walk, and the file
// is not searched directly (it is in the postings).
func TestLargeFileIndexed(t *testing.T) {
	root := testTree(t)
	writeFile(t, root, "gen/large.h", largeText("rare_register_name"))
	o := testOptions(t, root)
	mustBuild(t, o)
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	direct := ix.Direct()
	ix.Close()
	if direct != 2 { // bin.dat, utf16.txt
		t.Errorf("%d files searched directly, want 2 (the large file is indexed)", direct)
	}
	checkSame(t, "with a large file", o)
	for _, p := range []string{"rare_register_name", `register_name abcd`, `name\s+ab`} {
		walk, indexed := searchBoth(t, o, p, false, true, true)
		if walk != indexed || walk == "" {
			t.Errorf("%q: walk\n%.200s\nindex\n%.200s", p, walk, indexed)
		}
	}
}

// The parallel build (the workers' runs, not readOne) reads a large file
// in chunks and indexes it: the file is recorded as indexed and its rare
// word's trigrams hold its id, so queries need not read it.
func TestBuildIndexesLargeFile(t *testing.T) {
	root := testTree(t)
	writeFile(t, root, "big/large.h", largeText("xyzzy_plugh"))
	o := testOptions(t, root)
	o.Workers = 2
	mustBuild(t, o)
	files, _, err := readLists(context.Background(), mustOpenDB(t, o))
	if err != nil {
		t.Fatal(err)
	}
	id := int64(-1)
	for _, f := range files {
		if f.path == "big/large.h" {
			if !f.indexed {
				t.Fatalf("big/large.h is listed but not indexed: %+v", f)
			}
			id = f.id
		}
	}
	if id < 0 {
		t.Fatal("big/large.h is not in the file list")
	}
	plu := Trigram('p')<<16 | Trigram('l')<<8 | Trigram('u')
	if ids := postingsOf(t, o)[plu]; !slices.Contains(ids, id) {
		t.Fatalf("trigram \"plu\" lists %v, not the large file's id %d", ids, id)
	}
}
