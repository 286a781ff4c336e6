package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func mustBuild(t *testing.T, o Options) {
	t.Helper()
	if _, err := Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
}

// builtIndex builds the index of a fresh testTree.
func builtIndex(t *testing.T) (root string, o Options) {
	t.Helper()
	root = testTree(t)
	o = testOptions(t, root)
	mustBuild(t, o)
	return root, o
}

// writableDB opens the index of o to write, closed when the test ends.
func writableDB(t *testing.T, o Options) *sql.DB {
	t.Helper()
	db, err := openDB(o.dbPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func checkSame(t *testing.T, stage string, o Options) {
	t.Helper()
	patterns := differentialPatterns
	if raceEnabled {
		patterns = patterns[:3]
	}
	for i, c := range patterns {
		sc := scopes[i%len(scopes)]
		walk, indexed := searchBoth(t, o, c.p, c.fold, sc.hidden, sc.nodeModules)
		if walk != indexed {
			t.Errorf("%s: %q (hidden %v, node_modules %v): walk\n%s\nindex\n%s", stage, c.p, sc.hidden, sc.nodeModules, walk, indexed)
		}
	}
}

// A tree changing while it is indexed: a file truncated between its stat
// and its read is never trusted; files removed and added make the
// directories differ, so the index is stale until a refresh.
func TestTreeChangingDuringBuild(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	var once sync.Once
	o.afterStat = func(rel string) {
		if rel == "a/b.go" {
			writeFile(t, root, "a/b.go", "short\n")
		}
		if rel == "gen/f05.txt" {
			once.Do(func() {
				os.Remove(filepath.Join(root, "gen/f06.txt"))
				writeFile(t, root, "gen/zz-new.txt", "alpha_value appeared\n")
			})
		}
	}
	mustBuild(t, o)
	if _, err := Open(context.Background(), o); !errors.Is(err, ErrStale) {
		t.Fatalf("open after files came and went during the build: %v, want ErrStale", err)
	}
	o.afterStat = nil
	if _, err := Refresh(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	checkSame(t, "refreshed", o)
	// The truncated file is searched directly (or was re-indexed).
	writeFile(t, root, "a/b.go", "package a\nfunc AlphaValue() {}\n")
	checkSame(t, "rewritten", o)
}

// An index that is damaged or of another format version is not read:
// grep walks (ErrNoIndex) and the next refresh rebuilds it.
func TestCorruptAndOldIndexRebuilt(t *testing.T) {
	root := testTree(t)
	for name, damage := range map[string]func(o Options){
		"garbage": func(o Options) {
			os.WriteFile(o.dbPath(), []byte("not a database at all, but long enough to look like one"), 0o600)
		},
		"truncated": func(o Options) {
			fi, _ := os.Stat(o.dbPath())
			os.Truncate(o.dbPath(), fi.Size()/2)
		},
		"table missing": func(o Options) {
			db := writableDB(t, o)
			if _, err := db.Exec(`DROP TABLE postings`); err != nil {
				t.Fatal(err)
			}
		},
		"old version": func(o Options) {
			db := writableDB(t, o)
			if _, err := db.Exec(`UPDATE meta SET value = '0' WHERE key = 'format'`); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			o := testOptions(t, root)
			mustBuild(t, o)
			damage(o)
			ix, err := Open(context.Background(), o)
			if err == nil {
				// A truncated file may still open; its queries must fail
				// or be whole, never partial.
				ix.Close()
			} else if !errors.Is(err, ErrNoIndex) {
				t.Fatalf("open: %v, want ErrNoIndex", err)
			}
			st, err := Refresh(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Rebuilt && name != "truncated" {
				t.Errorf("refresh of a %s index did not rebuild it: %+v", name, st)
			}
			checkSame(t, "rebuilt", o)
		})
	}
}

// Two builders at once: one builds, the other waits for the lock and
// builds after it; the index is whole at the end.
func TestTwoBuilders(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Build(context.Background(), o)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkSame(t, "two builds", o)
}

// A builder waiting for the lock gives up when its context ends.
func TestWaitingBuilderCancelled(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	os.MkdirAll(o.Dir, 0o700)
	unlock, err := lockBuilder(context.Background(), o.lockPath())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("build while locked, cancelled: %v", err)
	}
}

// A build that fails part way (as on a full disk) leaves the old index
// whole and in use, and no temporary file behind.
func TestFailedBuildKeepsOldIndex(t *testing.T) {
	_, o := builtIndex(t)
	ctx, cancel := context.WithCancel(context.Background())
	o.afterStat = func(rel string) {
		if rel == "gen/f10.txt" {
			cancel()
		}
	}
	if _, err := Build(ctx, o); err == nil {
		t.Fatal("a build cancelled part way succeeded")
	}
	o.afterStat = nil
	entries, _ := os.ReadDir(o.Dir)
	for _, e := range entries {
		if e.Name() != "index.db" && e.Name() != "lock" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	checkSame(t, "after a failed build", o)
}

// Files over MaxFileSize, binary and UTF-16 files are listed but not
// indexed: every query searches them, as the walk would.
func TestUnindexedFilesAlwaysSearched(t *testing.T) {
	root := testTree(t)
	writeFile(t, root, "big.txt", strings.Repeat("alpha_value big\n", 200))
	o := testOptions(t, root)
	o.MaxFileSize = 1000
	mustBuild(t, o)
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if n := ix.Direct(); n != 3 { // big.txt, bin.dat, utf16.txt
		t.Errorf("%d files searched directly, want 3", n)
	}
	checkSame(t, "with a big file", o)
}

// A build that holds more postings than its budget writes several
// segments; queries read them all.
func TestBuildInSegments(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	o.flushBytes = 64
	mustBuild(t, o)
	st, err := ReadStatus(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Segments < 3 {
		t.Fatalf("%d segments from a 64-byte budget, want several", st.Segments)
	}
	checkSame(t, "segmented", o)
}

// A refresh after edits in place (no directory changed) compares stats
// only: the edited file is indexed again, nothing else moves.
func TestRefreshEditsOnly(t *testing.T) {
	root, o := builtIndex(t)
	writeFile(t, root, "gen/f07.txt", "alpha_value now, and number140\n")
	st, err := Refresh(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Changed != 1 || st.Removed != 0 || st.Rebuilt {
		t.Fatalf("refresh after one edit: %+v", st)
	}
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	direct := ix.Direct()
	ix.Close()
	if direct != 2 { // bin.dat, utf16.txt: the edited file is indexed again
		t.Errorf("%d files searched directly after the refresh, want 2", direct)
	}
	checkSame(t, "refreshed after an edit", o)
}

// A build killed before its rename (kill -9 skips its cleanup) leaves
// its temporary file; the next build, holding the lock, removes it, and
// keeps the index in place.
func TestBuildRemovesDeadTemps(t *testing.T) {
	if !lockIsExclusive {
		t.Skip("no exclusive builder lock on this platform")
	}
	_, o := builtIndex(t)
	dead := filepath.Join(o.Dir, "index.db.tmp123456")
	if err := os.WriteFile(dead, []byte("half an index"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustBuild(t, o)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead build's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(o.dbPath()); err != nil {
		t.Errorf("the index is gone: %v", err)
	}
}

// A write that runs out of space is recognised as such (the CLI then
// says the disk is full and the old index is kept).
func TestDiskFullRecognised(t *testing.T) {
	db, err := openDB(filepath.Join(t.TempDir(), "full.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{"PRAGMA max_page_count=3", "CREATE TABLE t(b BLOB)"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	_, err = db.Exec(`INSERT INTO t VALUES(zeroblob(100000))`)
	if err == nil || !DiskFull(err) {
		t.Fatalf("insert past the size limit: %v, want an error DiskFull recognises", err)
	}
	if DiskFull(errors.New("database is locked")) {
		t.Error("DiskFull of another error")
	}
}

// A posting list whose bytes were damaged in place (SQLite does not check
// the contents of a long blob's overflow pages) is not read as other ids:
// the query fails into the walk, and a merge of segments refuses it.
func TestDamagedPostingNotTrusted(t *testing.T) {
	_, o := builtIndex(t)
	db := writableDB(t, o)
	var tri int64
	if err := db.QueryRow(`SELECT tri FROM postings ORDER BY length(ids) DESC, tri LIMIT 1`).Scan(&tri); err != nil {
		t.Fatal(err)
	}
	// Drop the list's last id: still a valid list, of other files.
	if _, err := db.Exec(`UPDATE postings SET ids = substr(ids, 1, length(ids) - 1) WHERE tri = ?`, tri); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.posting(context.Background(), Trigram(tri), nil); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("reading a damaged posting list: %v, want ErrNoIndex", err)
	}
	checkSame(t, "damaged", o)
	checkDamageRecorded(t, o, ix, Trigram(tri))
}

// checkDamageRecorded: a query of ix that meets the damaged list of tri
// leaves the marker, after which the index does not open (searches walk
// at once), and a refresh builds it anew and removes the marker.
func checkDamageRecorded(t *testing.T, o Options, ix *Index, tri Trigram) {
	t.Helper()
	if _, err := ix.Candidates(context.Background(), triQuery(tri), Scope{}); !errors.Is(err, ErrDamaged) {
		t.Fatalf("a query meeting the damage: %v, want ErrDamaged", err)
	}
	if _, err := os.Stat(o.damagedPath()); err != nil {
		t.Fatalf("no marker after a query met the damage: %v", err)
	}
	if ix2, err := Open(context.Background(), o); err == nil {
		ix2.Close()
		t.Fatal("an index recorded as damaged opened")
	} else if !errors.Is(err, ErrDamaged) || !errors.Is(err, ErrNoIndex) {
		t.Fatalf("open of an index recorded as damaged: %v, want ErrDamaged", err)
	}
	st, err := Refresh(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Rebuilt {
		t.Errorf("a refresh of an index recorded as damaged did not rebuild it: %+v", st)
	}
	if _, err := os.Stat(o.damagedPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the marker is still there after the rebuild: %v", err)
	}
	ix2, err := Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open after the rebuild: %v", err)
	}
	ix2.Close()
	checkSame(t, "rebuilt", o)
}

// A page of the database that SQLite cannot read (bytes overwritten in
// the file, not through SQLite) is damage too: recorded, then rebuilt.
func TestDamagedPageRecorded(t *testing.T) {
	_, o := builtIndex(t)
	db := writableDB(t, o)
	var tri int64
	if err := db.QueryRow(`SELECT tri FROM postings ORDER BY tri DESC LIMIT 1`).Scan(&tri); err != nil {
		t.Fatal(err)
	}
	var pageSize, root2 int64
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'postings'`).Scan(&root2); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Overwrite the header of the postings table's root page: every
	// lookup in it then fails as "database disk image is malformed".
	f, err := os.OpenFile(o.dbPath(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, 16), (root2-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	checkDamageRecorded(t, o, ix, Trigram(tri))
}

// A chunk of the file list or a list whose bytes were damaged is not
// read: opening the index is ErrNoIndex, and a refresh rebuilds it.
func TestDamagedListsNotTrusted(t *testing.T) {
	root := testTree(t)
	for name, damage := range map[string]string{
		"file list chunk": `UPDATE files SET data = substr(data, 1, length(data) - 1) || x'00' WHERE chunk = 0`,
		"directory list":  `UPDATE lists SET data = substr(data, 1, length(data) - 1) || x'00' WHERE name = 'dirs'`,
	} {
		t.Run(name, func(t *testing.T) {
			o := testOptions(t, root)
			mustBuild(t, o)
			db := writableDB(t, o)
			if _, err := db.Exec(damage); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if ix, err := Open(context.Background(), o); err == nil {
				ix.Close()
				t.Fatal("a damaged index opened")
			} else if !errors.Is(err, ErrNoIndex) {
				t.Fatalf("open: %v, want ErrNoIndex", err)
			}
			st, err := Refresh(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Rebuilt {
				t.Errorf("refresh of a damaged index did not rebuild it: %+v", st)
			}
			checkSame(t, "rebuilt", o)
		})
	}
	// The lists only a watched query or a refresh reads.
	o := testOptions(t, root)
	mustBuild(t, o)
	db := writableDB(t, o)
	if _, err := db.Exec(`UPDATE lists SET data = data || x'01' WHERE name = 'unindexed'`); err != nil {
		t.Fatal(err)
	}
	if _, err := readUnindexed(context.Background(), db); !errors.Is(err, ErrNoIndex) {
		t.Errorf("reading a damaged unindexed list: %v, want ErrNoIndex", err)
	}
	if _, err := db.Exec(`INSERT OR REPLACE INTO lists(name, data, sum) VALUES('delta', x'0102', 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := readDelta(context.Background(), db); !errors.Is(err, ErrNoIndex) {
		t.Errorf("reading a damaged delta: %v, want ErrNoIndex", err)
	}
}
