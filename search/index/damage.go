package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/gopi-agent/gopi/internal/atomicfile"
	"github.com/gopi-agent/gopi/internal/regularfile"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A search that finds the index file damaged (a blob failing its
// checksum, or a page SQLite cannot read) leaves a marker beside it
// saying what failed. From then on every search walks without opening
// the index, gopi index --status says it is damaged, and the next
// refresh (gopi index, a watcher, gopi grep --index) builds it anew,
// which removes the marker. Without it, a damaged index cost every
// search an open before walking, and a refresh left it as it was.

// damagedName is the marker's name in the index directory.
const damagedName = "damaged"

// ErrDamaged is the error (an ErrNoIndex) of an index found damaged.
var ErrDamaged = errDamaged

func (o *Options) damagedPath() string { return filepath.Join(o.Dir, damagedName) }

// isDamage reports whether err says the index file is damaged.
func isDamage(err error) bool {
	if errors.Is(err, errDamaged) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return false
}

// noteDamage leaves the marker when err is damage found in the index
// file read, opened (best effort: without it, searches still walk on
// meeting the damage), and returns err, as an ErrDamaged when it is
// damage. A file a build has since replaced is not marked: the new
// index is another file. The marker names the file it condemns by its
// inode, so one left behind for a file a build has replaced (a build
// killed between its rename and the marker's removal, or a search
// marking the old file as the build renamed the new one over it) does
// not condemn the healthy index after it.
func noteDamage(o *Options, opened os.FileInfo, err error) error {
	if err == nil || !isDamage(err) {
		return err
	}
	if !errors.Is(err, errDamaged) {
		err = fmt.Errorf("%w (%v)", errDamaged, err)
	}
	if now, serr := os.Stat(o.dbPath()); serr != nil || !os.SameFile(opened, now) {
		return err
	}
	detail := strings.TrimSpace(strings.TrimPrefix(err.Error(), errDamaged.Error()))
	marker := fmt.Sprintf("%s\n%s%d\n", detail, markerInode, inode(opened))
	_ = atomicfile.WriteFile(o.damagedPath(), []byte(marker), 0o600)
	return err
}

// markerInode starts the marker's line naming the inode of the index
// file it condemns.
const markerInode = "inode "

// maxMarker is how much of a marker is read: what gopi writes is a line
// of detail and the inode; anything longer was not written by it.
const maxMarker = 4 << 10

// damaged returns the damage recorded for the index of o, nil when none.
// Only a regular file is a marker (a directory, a named pipe — whose open
// would wait for ever — or a file that cannot be read is not one gopi
// wrote, and the index is opened and checked as usual; regularfile
// refuses a pipe swapped in after its check too), and only its first
// maxMarker bytes are read. A marker naming another file
// than the index there now is a leftover, not damage.
func damaged(o *Options) error {
	b, err := regularfile.ReadPrefix(o.damagedPath(), maxMarker)
	if err != nil {
		return nil
	}
	lines := strings.Split(string(b), "\n")
	for _, l := range lines[1:] {
		if n, ok := strings.CutPrefix(strings.TrimSpace(l), markerInode); ok {
			db, err := os.Stat(o.dbPath())
			if err == nil && strconv.FormatInt(inode(db), 10) != n {
				return nil // left for a file since replaced
			}
		}
	}
	detail := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.TrimSpace(lines[0]))
	if r := []rune(detail); len(r) > 200 {
		detail = string(r[:200]) + "…"
	}
	if detail != "" {
		return fmt.Errorf("%w %s", errDamaged, detail)
	}
	return errDamaged
}

// clearDamage removes the marker (after a build has replaced the index).
func clearDamage(o *Options) { os.Remove(o.damagedPath()) }
