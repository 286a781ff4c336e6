//go:build unix

package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openSoon opens the index of o, failing the test when that takes more
// than 10 s (a read of the marker that blocks).
func openSoon(t *testing.T, o Options) (*Index, error) {
	t.Helper()
	type opened struct {
		ix  *Index
		err error
	}
	done := make(chan opened, 1)
	go func() {
		ix, err := Open(context.Background(), o)
		done <- opened{ix, err}
	}()
	select {
	case r := <-done:
		return r.ix, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("opening the index is still blocked after 10 s")
		return nil, nil
	}
}

// A marker that is not one gopi wrote — a named pipe, a directory — is no
// marker: the index opens (every read is still checked) and neither
// blocks nor is refused; a build removes it.
func TestDamageMarkerNotAFile(t *testing.T) {
	for _, kind := range []string{"pipe", "directory"} {
		t.Run(kind, func(t *testing.T) {
			_, o := builtIndex(t)
			var err error
			if kind == "pipe" {
				err = syscall.Mkfifo(o.damagedPath(), 0o600)
			} else {
				err = os.Mkdir(o.damagedPath(), 0o700)
			}
			if err != nil {
				t.Skip(err)
			}
			ix, err := openSoon(t, o)
			if err != nil {
				t.Fatalf("open with a %s as the marker: %v", kind, err)
			}
			ix.Close()
			checkSame(t, kind, o)
			if _, err := ReadStatus(context.Background(), o); err != nil {
				t.Fatalf("status: %v", err)
			}
			if _, err := Build(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(o.damagedPath()); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the %s is still there after a build: %v", kind, err)
			}
		})
	}
}

// A huge marker is damage all the same, read no further than a marker
// gopi writes could be: the error stays a line.
func TestDamageMarkerHuge(t *testing.T) {
	_, o := builtIndex(t)
	f, err := os.Create(o.damagedPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 20); err != nil { // sparse: 64 MiB of zero bytes
		t.Fatal(err)
	}
	f.Close()
	_, err = openSoon(t, o)
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("open with a huge marker: %v, want ErrDamaged", err)
	}
	if n := len(err.Error()); n > 400 {
		t.Errorf("the damage reads as %d bytes of text", n)
	}
}

// A marker left for an index file a build has since replaced (the build
// killed after its rename, before removing the marker) does not condemn
// the healthy index: it opens, and its status is not "damaged". A marker
// for the file there now still is damage.
func TestDamageMarkerOfReplacedIndex(t *testing.T) {
	_, o := builtIndex(t)
	before, err := os.Stat(o.dbPath())
	if err != nil {
		t.Fatal(err)
	}
	noteDamage(&o, before, errDamaged)
	marker, err := os.ReadFile(o.damagedPath())
	if err != nil {
		t.Fatalf("no marker: %v", err)
	}
	if _, err := openSoon(t, o); !errors.Is(err, ErrDamaged) {
		t.Fatalf("open of the marked index: %v, want ErrDamaged", err)
	}
	mustBuild(t, o)
	if err := os.WriteFile(o.damagedPath(), marker, 0o600); err != nil { // as a killed build leaves it
		t.Fatal(err)
	}
	ix, err := openSoon(t, o)
	if err != nil {
		t.Fatalf("open of a rebuilt index beside the old file's marker: %v", err)
	}
	ix.Close()
	if _, err := ReadStatus(context.Background(), o); err != nil {
		t.Fatalf("status: %v", err)
	}
	if strings.Count(string(marker), "\n") < 2 {
		t.Errorf("the marker does not name the file: %q", marker)
	}
}

// An index from before the "denied" meta key gets it at its next
// refresh; and a directory recorded as unreadable (no names digest) that
// can be read again (a chmod leaves its mtime) is listed again, so
// searches holding it stop walking.
func TestRefreshRecordsDeniedDirectories(t *testing.T) {
	_, o := builtIndex(t)
	db := writableDB(t, o)
	dirs, err := readDirs(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	for i := range dirs {
		if dirs[i].path == "a" {
			dirs[i].names = "" // as namesDigest records a directory it cannot read
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := writeList(context.Background(), tx, "dirs", encodeDirs(dirs)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE meta SET value = 'a' WHERE key = 'denied'`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if ix, err := Open(context.Background(), o); !errors.Is(err, ErrStale) {
		if err == nil {
			ix.Close()
		}
		t.Errorf("open with a directory recorded unreadable that can be read: %v, want ErrStale", err)
	}
	ix, err := openUnchecked(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.deniedBelow("") || !ix.deniedBelow("a") || ix.deniedBelow("gen") {
		t.Errorf("denied %q: a search of the root and of a must walk, one of gen need not", ix.denied)
	}
	ix.Close()
	if _, err := db.Exec(`DELETE FROM meta WHERE key = 'denied'`); err != nil { // an older index
		t.Fatal(err)
	}
	db.Close()
	st, err := Refresh(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Denied) != 0 {
		t.Errorf("refresh reports %q as unreadable, want none: a is readable", st.Denied)
	}
	ix, err = openSoon(t, o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	meta, err := readMeta(context.Background(), ix.tx)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := meta["denied"]; !ok || v != "" || ix.deniedBelow("") {
		t.Errorf("after the refresh: denied %q (recorded: %v), want recorded and empty", v, ok)
	}
	checkSame(t, "readable again", o)
}

// A refresh killed mid-write (kill -9 of a session whose watcher was
// applying changes) leaves a hot journal: the next search rolls it back
// and uses the index as it was before the refresh, instead of every
// search walking until gopi index runs.
func TestHotJournalRolledBack(t *testing.T) {
	_, o := builtIndex(t)
	db := writableDB(t, o)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{`PRAGMA cache_size=1`, `BEGIN`, `UPDATE postings SET ids = zeroblob(length(ids))`, `UPDATE files SET chunk = chunk + 1000000`, `UPDATE meta SET value = 'elsewhere' WHERE key = 'root'`} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// The files as a crash leaves them: the transaction's pages written
	// over the database, the journal holding the old ones, no lock held.
	crashed := o
	crashed.Dir = filepath.Join(t.TempDir(), "ix")
	if err := os.MkdirAll(crashed.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.db", "index.db-journal"} {
		b, err := os.ReadFile(filepath.Join(o.Dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(crashed.Dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := openSoon(t, crashed)
	if err != nil {
		t.Fatalf("open after a writer died: %v", err)
	}
	ix.Close()
	checkSame(t, "journal rolled back", crashed)
}
