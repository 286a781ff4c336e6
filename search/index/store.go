package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"

	"syscall"

	"modernc.org/sqlite" // the SQLite driver the store is written with
	sqlite3 "modernc.org/sqlite/lib"
)

// FormatVersion is the version of the on-disk layout. An index of any
// other version is not read: it is rebuilt.
const FormatVersion = 5

// schema is the layout of FormatVersion.
//
//	meta      key/value: format, root, walk (the walk options), built,
//	          segments (how many posting segments there are: a build
//	          writes one per defaultFlushBytes of run entries, one for
//	          most trees), base (how many of them
//	          the build wrote; refreshes add the others and merge them),
//	          refreshes (refreshes since the build), generation (a token
//	          each refresh writes anew: a watcher's decoded copy of the
//	          lists is current while it matches)
//	files     the file list in chunks (liststore.go): chunk k holds the
//	          records of the ids from k*64 to k*64+63 still listed, each
//	          with its relative path, its stat when indexed, whether its
//	          text is in the postings (not: binary, UTF-16, too large or
//	          unreadable; always searched) and whether the walk that
//	          leaves hidden files out lists it too; a query reads only the
//	          chunks of its candidates, a refresh writes only the chunks
//	          it changed
//	lists     blobs read and written whole: 'unindexed', the ids of the
//	          files not in the postings; 'dirs', every directory the walk
//	          entered with its stat, the stat of its ignore files and a
//	          digest of its entry names, so a query sees the file set
//	          change; 'delta' (delta.go)
//	postings  per trigram and segment, the ascending ids of the
//	          segment's files holding the trigram, and their checksum
//	          (postingSum: SQLite checks its pages' structure but not the
//	          bytes of a long blob's overflow pages, where most of the
//	          file lies, so damage there would read as other ids)
const schema = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(chunk INTEGER PRIMARY KEY, data BLOB NOT NULL, sum INTEGER NOT NULL);
CREATE TABLE lists(name TEXT PRIMARY KEY, data BLOB NOT NULL, sum INTEGER NOT NULL);
CREATE TABLE postings(seg INTEGER NOT NULL, tri INTEGER NOT NULL, ids BLOB NOT NULL, sum INTEGER NOT NULL, PRIMARY KEY(tri, seg)) WITHOUT ROWID;
`

// ErrNoIndex: no usable index exists for the tree (none built, another
// format version, or damaged). The caller walks, or builds one.
var ErrNoIndex = errors.New("no usable index")

// openDB opens the database at path with a busy timeout, so a reader
// meeting a refresh's commit waits briefly instead of failing.
func openDB(path string, readOnly bool) (*sql.DB, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)"
	if readOnly {
		dsn += "&mode=ro"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// readMeta returns the meta table, or ErrNoIndex when it is missing,
// unreadable or of another format version.
func readMeta(ctx context.Context, db querier) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	defer rows.Close()
	meta := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		meta[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	if v := meta["format"]; v != strconv.Itoa(FormatVersion) {
		return nil, fmt.Errorf("%w: format version %q, this gopi reads %d", ErrNoIndex, v, FormatVersion)
	}
	if err := checkTables(ctx, db); err != nil {
		return nil, err
	}
	return meta, nil
}

// checkTables: the database's tables are schema's, no more and no less
// (a table dropped or altered by hand would otherwise read as empty and
// keep a refresh from rebuilding); ErrNoIndex otherwise.
func checkTables(ctx context.Context, db querier) error {
	rows, err := db.QueryContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var sql string
		if err := rows.Scan(&sql); err != nil {
			return fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		got = append(got, strings.TrimSpace(sql))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	if want := schemaTables(); !slices.Equal(got, want) {
		return fmt.Errorf("%w: its tables are not this version's", ErrNoIndex)
	}
	return nil
}

// schemaTables are schema's CREATE TABLE statements, as SQLite records
// them, ordered by table name.
func schemaTables() []string {
	var out []string
	for _, st := range strings.Split(schema, ";") {
		if st = strings.TrimSpace(st); st != "" {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(tableName(a), tableName(b)) })
	return out
}

// tableName is the name a CREATE TABLE statement creates.
func tableName(create string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(create, "CREATE TABLE "), "(")
	return name
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// writeMetaValues sets meta keys.
func writeMetaValues(ctx context.Context, tx *sql.Tx, kv map[string]string) error {
	for k, v := range kv {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, k, v); err != nil {
			return fmt.Errorf("write the index: %w", err)
		}
	}
	return nil
}

// insertBatch is how many postings rows one INSERT statement carries: a
// statement's fixed cost (through database/sql: bind, step, reset) was
// most of a small row's.
const insertBatch = 128

// postingCols is how many values a postings row has.
const postingCols = 4

// blobSum is the checksum stored with a blob of the index (a posting
// list, a chunk of the file list, a list): CRC-32C of its row's key and
// its bytes, so a damaged blob, or one moved under another key, fails it.
func blobSum(key, b []byte) int64 {
	return int64(int32(crc32.Update(crc32.Update(0, castagnoli, key), castagnoli, b))) // 4 bytes in a record, not 6
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// postingSum is the checksum of the posting list ids of t.
func postingSum(t Trigram, ids []byte) int64 {
	var k [4]byte
	binary.LittleEndian.PutUint32(k[:], uint32(t))
	return blobSum(k[:], ids)
}

// chunkSum is the checksum of chunk k of the file list.
func chunkSum(k int64, data []byte) int64 {
	var key [8]byte
	binary.LittleEndian.PutUint64(key[:], uint64(k))
	return blobSum(key[:], data)
}

// errDamaged: a blob failed its checksum.
var errDamaged = fmt.Errorf("%w: the index file is damaged; gopi index builds it anew", ErrNoIndex)

// checkPosting returns ErrNoIndex when the list of t read back does not
// match the checksum stored with it.
func checkPosting(t Trigram, ids []byte, sum int64) error {
	if postingSum(t, ids) != sum {
		return fmt.Errorf("%w (the posting list of trigram %#06x fails its checksum)", errDamaged, uint32(t))
	}
	return nil
}

// asNoIndex is err as an ErrNoIndex (unchanged when it is one).
func asNoIndex(err error) error {
	if errors.Is(err, ErrNoIndex) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrNoIndex, err)
}

// readList reads the blob name of the lists table, checked against its
// checksum; sql.ErrNoRows when there is none.
func readList(ctx context.Context, db querier, name string) ([]byte, error) {
	var b []byte
	var sum int64
	if err := db.QueryRowContext(ctx, `SELECT data, sum FROM lists WHERE name = ?`, name).Scan(&b, &sum); err != nil {
		return nil, err
	}
	if blobSum([]byte(name), b) != sum {
		return nil, fmt.Errorf("%w (the list %q fails its checksum)", errDamaged, name)
	}
	return b, nil
}

// writeList replaces the blob name of the lists table, with its checksum.
func writeList(ctx context.Context, tx *sql.Tx, name string, b []byte) error {
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO lists(name, data, sum) VALUES(?, ?, ?)`, name, b, blobSum([]byte(name), b))
	return err
}

// postingsWriter inserts postings rows in batches of insertBatch.
type postingsWriter struct {
	ctx  context.Context // checked between batches
	tx   *sql.Tx
	full *sql.Stmt // insertBatch rows
	args []any
}

// insertRows is an INSERT of n postings rows.
func insertRows(n int) string {
	return `INSERT INTO postings(seg, tri, ids, sum) VALUES(?, ?, ?, ?)` + strings.Repeat(", (?, ?, ?, ?)", n-1)
}

func newPostingsWriter(ctx context.Context, tx *sql.Tx) (*postingsWriter, error) {
	full, err := tx.PrepareContext(ctx, insertRows(insertBatch))
	if err != nil {
		return nil, fmt.Errorf("write the postings: %w", err)
	}
	return &postingsWriter{ctx: ctx, tx: tx, full: full, args: make([]any, 0, postingCols*insertBatch)}, nil
}

// add queues a row (ids is read when the batch is written).
func (w *postingsWriter) add(seg int, tri Trigram, ids []byte) error {
	w.args = append(w.args, seg, int64(tri), ids, postingSum(tri, ids))
	if len(w.args) < cap(w.args) {
		return nil
	}
	return w.exec(w.full)
}

// flush writes the rows queued.
func (w *postingsWriter) flush() error {
	if len(w.args) == 0 {
		return nil
	}
	st, err := w.tx.PrepareContext(w.ctx, insertRows(len(w.args)/postingCols))
	if err != nil {
		return fmt.Errorf("write the postings: %w", err)
	}
	defer st.Close()
	return w.exec(st)
}

// exec runs st with the queued rows. The statement runs without ctx:
// given a context that can end, the SQLite driver watches it from a new
// goroutine per statement (half the inserts' cost); ctx is checked here.
func (w *postingsWriter) exec(st *sql.Stmt) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if _, err := st.ExecContext(context.WithoutCancel(w.ctx), w.args...); err != nil {
		return fmt.Errorf("write the postings: %w", err)
	}
	w.args = w.args[:0]
	return nil
}

func (w *postingsWriter) close() { w.full.Close() }

// DiskFull reports whether err is a write that failed for want of space
// (SQLite's "database or disk is full", or ENOSPC from the file system).
// A build or refresh that fails so leaves the previous index as it was.
func DiskFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}
