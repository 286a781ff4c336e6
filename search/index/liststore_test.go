package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// bigTree is testTree with enough files for the file list to span
// several chunks.
func bigTree(t *testing.T) string {
	root := testTree(t)
	for i := range 300 {
		writeFile(t, root, fmt.Sprintf("many/d%d/m%03d.txt", i%7, i), fmt.Sprintf("many file %d says number%d\n", i, i*13))
	}
	writeFile(t, root, "many/d3/z.txt", "alpha_value at the end\n")
	return root
}

// A query through a watcher reads only the chunks of the file list that
// hold its candidates and the files never indexed; what it returns is
// what a query reading the whole list returns.
func TestChunkedCandidatesAsWholeList(t *testing.T) {
	root := bigTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	ctx := context.Background()
	for _, p := range []string{"alpha_value", "number2", "number1300", "nothing-here", "x", "many file 299"} {
		q, _ := Plan(p, false)
		whole, err := Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := whole.Candidates(ctx, q, Scope{})
		whole.Close()
		if err != nil {
			t.Fatal(err)
		}
		chunked, err := Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		// As a watched index is read: no file list but the unindexed ids.
		chunked.files, chunked.direct = nil, nil
		if chunked.unindexed, err = readUnindexed(ctx, chunked.tx); err != nil {
			t.Fatal(err)
		}
		got, err := chunked.Candidates(ctx, q, Scope{})
		chunked.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: chunked candidates %q, want %q", p, got, want)
		}
	}
}

// A chunk holding an id outside its range is damage: the index is not
// read.
func TestChunkOutOfRangeIsDamage(t *testing.T) {
	root := bigTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	db, err := openDB(o.dbPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	bad := encodeFiles([]fileRecord{{id: 1, path: "a.c", indexed: true}})
	if _, err := db.Exec(`UPDATE files SET data = ? WHERE chunk = 2`, bad); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(context.Background(), o); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("open with a chunk out of range: %v, want ErrNoIndex", err)
	}
}

// A refresh writes only the chunks whose records changed, and the list
// read back is the list it kept.
func TestRefreshWritesChangedChunks(t *testing.T) {
	root := bigTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	ctx := context.Background()
	before := chunkRows(t, o)
	writeFile(t, root, "many/d0/m007.txt", "edited: alpha_value\n")
	if _, err := Refresh(ctx, o); err != nil {
		t.Fatal(err)
	}
	after := chunkRows(t, o)
	var differ []int64
	for k, data := range after {
		if before[k] != data {
			differ = append(differ, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			differ = append(differ, k)
		}
	}
	// The edited file's old chunk lost it, the last chunk gained it.
	if len(differ) > 2 {
		t.Errorf("a refresh of one file rewrote %d chunks: %v", len(differ), differ)
	}
	checkSame(t, "one chunk rewritten", o)
}

// chunkRows are the stored chunks of the file list.
func chunkRows(t *testing.T, o Options) map[int64]string {
	t.Helper()
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT chunk, data FROM files`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var k int64
		var b []byte
		if err := rows.Scan(&k, &b); err != nil {
			t.Fatal(err)
		}
		out[k] = string(b)
	}
	if len(out) < 4 {
		t.Fatalf("%d chunks: the tree is too small to test chunks", len(out))
	}
	return out
}

// A watcher keeps the decoded lists between its refreshes; when another
// process rebuilds the index meanwhile (new ids for every file), the
// watcher's copy is stale and its next refresh reads the lists again.
func TestWatcherListCopyFollowsOtherWriters(t *testing.T) {
	root := bigTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	startWatcher(t, o)
	// Edits give files new ids in the watcher's copy…
	for i := range 5 {
		writeFile(t, root, fmt.Sprintf("many/d%d/m%03d.txt", i, 10*i+i%7), "edited alpha_value number21\n")
	}
	openWatched(t, o)
	checkSame(t, "edited, watched", o)
	// …then another process rebuilds (ids from 1 again), and edits more.
	mustBuild(t, o)
	writeFile(t, root, "many/d1/m001.txt", "after the rebuild: AlphaValue quick\n")
	writeFile(t, root, "gen/f09.txt", "after the rebuild: kelvin number14\n")
	openWatched(t, o)
	checkSame(t, "rebuilt by another process, edited, watched", o)
	// A refresh by another process (it writes its own generation).
	writeFile(t, root, "gen/f10.txt", "refreshed elsewhere: alpha_value\n")
	o2 := o
	o2.noWatcher = true
	if _, err := Refresh(context.Background(), o2); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "gen/f11.txt", "then watched again: quick\n")
	openWatched(t, o)
	checkSame(t, "refreshed by another process, edited, watched", o)
}

// The watcher's path index follows every refresh, also when a new file
// gets the id of the file removed before it (ids start after the highest
// one listed): an edit of that new file is seen.
func TestWatcherPathIndexFollowsReusedIDs(t *testing.T) {
	root := bigTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	files := func() []fileRecord {
		ix, err := Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		fs, err := readFiles(context.Background(), ix.tx)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	startWatcher(t, o)
	writeFile(t, root, "many/d1/m008.txt", "a first edit: number21\n") // the path index is built
	openWatched(t, o)
	last := files()
	top := last[len(last)-1]
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(top.path))); err != nil {
		t.Fatal(err)
	}
	openWatched(t, o)
	writeFile(t, root, "many/d1/zz-new.txt", "new file: quick\n")
	openWatched(t, o)
	now := files()
	if got := now[len(now)-1]; got.path != "many/d1/zz-new.txt" || got.id != top.id {
		t.Fatalf("the new file %s got id %d, the removed %s had %d: the case is not the one tested", got.path, got.id, top.path, top.id)
	}
	writeFile(t, root, "many/d1/zz-new.txt", "new file edited: alpha_value kelvin\n")
	openWatched(t, o)
	checkSame(t, "new file with a reused id, edited, watched", o)
}
