package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"
)

// SchemaVersion is the credential schema (auth_schema_version) gopi reads
// and writes: omp 14.9.9's.
const SchemaVersion = 4

// DefaultBusyTimeout is how long a statement waits for another process's
// lock on agent.db before it fails, omp's busy_timeout.
const DefaultBusyTimeout = 5 * time.Second

// DB is one agent.db: its auth_credentials table, in omp's format. A DB
// gopi owns is created and migrated to SchemaVersion; a foreign one (omp's)
// is read as it is and written only where a row changes (a refreshed
// token, a soft delete), never restructured.
type DB struct {
	path  string
	sql   *sql.DB
	owned bool
	// Columns of auth_credentials that older schemas lack.
	hasDisabledCause, hasDisabledFlag, hasIdentity, hasUpdated bool
	missing                                                    bool // a foreign file without the table: no rows
}

// row is one auth_credentials row.
type row struct {
	id       int64
	provider string
	kind     Kind
	data     string
	cred     Credential
	identity string
	disabled string // disabled_cause; "" when active
}

// ErrNoDB is openDB's answer for a foreign database file that does not
// exist.
var ErrNoDB = errors.New("no agent.db")

// openDB opens the agent.db at path. With owned, a missing file (and
// directory) is created with modes 0600 and 0700 and the schema is made or
// migrated; without it a missing file is ErrNoDB. A database gopi cannot
// use is a *DBError naming the file and what to do; nothing in the file is
// changed before it is known to be usable.
func openDB(ctx context.Context, path string, owned bool, busy time.Duration) (*DB, error) {
	if busy <= 0 {
		busy = DefaultBusyTimeout
	}
	mode := "rw"
	if owned {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, &DBError{Path: path, Problem: "cannot create its directory (" + err.Error() + ")", Fix: "check the permissions of " + filepath.Dir(path)}
		}
		mode = "rwc"
	} else if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoDB
	}
	q := url.Values{}
	q.Set("mode", mode)
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, classify(path, err)
	}
	sdb.SetMaxOpenConns(1) // one connection: statements of this process queue here, not on SQLite's lock
	d := &DB{path: path, sql: sdb, owned: owned}
	if err := d.prepare(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	if owned {
		_ = os.Chmod(path, 0o600) // as omp: the owner alone reads credentials
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.sql.Close() }

// Path is the database file.
func (d *DB) Path() string { return d.path }

// prepare checks the schema and, for an owned file, creates or migrates it.
func (d *DB) prepare(ctx context.Context) error {
	has, version, err := d.schema(ctx, d.sql)
	if err != nil {
		return classify(d.path, err)
	}
	if version > SchemaVersion {
		return newerSchema(d.path, version)
	}
	if !d.owned {
		d.missing = !has
		return nil
	}
	if has && version == SchemaVersion && d.hasDisabledCause && d.hasIdentity {
		return classify(d.path, d.backfillIdentity(ctx))
	}
	return classify(d.path, d.create(ctx))
}

// newerSchema is the error for a file a newer gopi or omp has written.
func newerSchema(path string, version int) error {
	return &DBError{Path: path, Problem: fmt.Sprintf("its credential schema is version %d, newer than the %d this gopi knows", version, SchemaVersion), Fix: "upgrade gopi; the file was left as it is"}
}

// schema reads, through q (the database or a transaction), whether
// auth_credentials exists, the recorded schema version (0 for none) and
// which optional columns the table has.
func (d *DB) schema(ctx context.Context, q querier) (has bool, version int, err error) {
	exists := func(name string) (bool, error) {
		rows, err := q.QueryContext(ctx, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name)
		if err != nil {
			return false, err
		}
		defer rows.Close()
		found := rows.Next()
		return found, rows.Err()
	}
	if has, err = exists("auth_credentials"); err != nil {
		return false, 0, err
	}
	hasVersionTable, err := exists("auth_schema_version")
	if err != nil {
		return false, 0, err
	}
	if hasVersionTable {
		rows, err := q.QueryContext(ctx, "SELECT version FROM auth_schema_version WHERE id = 1")
		if err != nil {
			return false, 0, err
		}
		var v sql.NullInt64
		if rows.Next() {
			err = rows.Scan(&v)
		}
		rows.Close()
		if err != nil {
			return false, 0, err
		}
		version = int(v.Int64)
	}
	if has {
		if err := d.readColumns(ctx, q); err != nil {
			return false, 0, err
		}
	}
	return has, version, nil
}

// readColumns notes which optional columns auth_credentials has.
func (d *DB) readColumns(ctx context.Context, q querier) error {
	d.hasDisabledCause, d.hasDisabledFlag, d.hasIdentity, d.hasUpdated = false, false, false, false
	rows, err := q.QueryContext(ctx, "SELECT name FROM pragma_table_info('auth_credentials')")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return err
		}
		switch name {
		case "disabled_cause":
			d.hasDisabledCause = true
		case "disabled":
			d.hasDisabledFlag = true
		case "identity_key":
			d.hasIdentity = true
		case "updated_at":
			d.hasUpdated = true
		}
	}
	return rows.Err()
}

// nowEpoch is SQLite's current time in Unix seconds, omp's timestamps.
const nowEpoch = "CAST(strftime('%s','now') AS INTEGER)"

const createCredentials = `CREATE TABLE auth_credentials (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	provider TEXT NOT NULL,
	credential_type TEXT NOT NULL,
	data TEXT NOT NULL,
	disabled_cause TEXT DEFAULT NULL,
	identity_key TEXT DEFAULT NULL,
	created_at INTEGER NOT NULL DEFAULT (` + nowEpoch + `),
	updated_at INTEGER NOT NULL DEFAULT (` + nowEpoch + `)
)`

// create makes the schema in one transaction: the tables omp's credential
// store has, and auth_credentials copied from an older layout when there
// is one (every older version's rows carry over; a v0 "disabled" flag
// becomes the cause "disabled"). The schema is read again inside the
// transaction, which holds the write lock: another process (gopi or omp)
// may have created or migrated it since prepare looked, and then there is
// nothing left to do.
func (d *DB) create(ctx context.Context) error {
	// WAL lets readers in other processes go on while one writes; the mode
	// cannot change inside a transaction.
	if _, err := d.sql.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return err
	}
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	migrate, version, err := d.schema(ctx, tx)
	if err != nil {
		return err
	}
	if version > SchemaVersion {
		return newerSchema(d.path, version)
	}
	if migrate && version == SchemaVersion && d.hasDisabledCause && d.hasIdentity {
		if err := tx.Commit(); err != nil {
			return err
		}
		return d.backfillIdentity(ctx)
	}
	stmts := []string{
		`CREATE TABLE IF NOT EXISTS auth_schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS idx_cache_expires ON cache(expires_at)`,
	}
	if migrate {
		disabled := "NULL"
		if d.hasDisabledCause {
			disabled = "disabled_cause"
		} else if d.hasDisabledFlag {
			disabled = "CASE WHEN disabled = 1 THEN 'disabled' ELSE NULL END"
		}
		identity := "NULL"
		if d.hasIdentity {
			identity = "identity_key"
		}
		stmts = append(stmts,
			"ALTER TABLE auth_credentials RENAME TO auth_credentials_old",
			createCredentials,
			`INSERT INTO auth_credentials (id, provider, credential_type, data, disabled_cause, identity_key, created_at, updated_at)
			 SELECT id, provider, credential_type, data, `+disabled+`, `+identity+`, created_at, updated_at FROM auth_credentials_old`,
			"DROP TABLE auth_credentials_old")
	} else {
		stmts = append(stmts, createCredentials)
	}
	stmts = append(stmts,
		`CREATE INDEX IF NOT EXISTS idx_auth_provider ON auth_credentials(provider)`,
		`CREATE INDEX IF NOT EXISTS idx_auth_provider_identity ON auth_credentials(provider, identity_key) WHERE identity_key IS NOT NULL`,
		`INSERT OR REPLACE INTO auth_schema_version(id, version) VALUES (1, `+fmt.Sprint(SchemaVersion)+`)`)
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.hasDisabledCause, d.hasIdentity, d.hasUpdated = true, true, true
	return d.backfillIdentity(ctx)
}

// backfillIdentity fills identity_key of sign-in rows that have none, as
// omp does when it opens the file.
func (d *DB) backfillIdentity(ctx context.Context) error {
	rows, err := d.query(ctx, "identity_key IS NULL AND credential_type = 'oauth'", false)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if id := IdentityKey(r.provider, r.cred); id != "" {
			if _, err := d.sql.ExecContext(ctx, "UPDATE auth_credentials SET identity_key = ? WHERE id = ?", id, r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// activeClause is the condition of a row that is not soft-deleted.
func (d *DB) activeClause() string {
	switch {
	case d.hasDisabledCause:
		return "disabled_cause IS NULL"
	case d.hasDisabledFlag:
		return "COALESCE(disabled, 0) = 0"
	}
	return "1"
}

// query returns the rows matching where (with ? bound to args), active
// ones only unless all; rows whose data gopi cannot read are skipped.
func (d *DB) query(ctx context.Context, where string, all bool, args ...any) ([]row, error) {
	return d.queryOn(ctx, d.sql, where, all, args...)
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryOn is query inside a transaction (q) or outside it.
func (d *DB) queryOn(ctx context.Context, on querier, where string, all bool, args ...any) ([]row, error) {
	if d.missing {
		return nil, nil
	}
	cond := []string{}
	if where != "" {
		cond = append(cond, "("+where+")")
	}
	if !all {
		cond = append(cond, d.activeClause())
	}
	cols := "id, provider, credential_type, data, "
	if d.hasIdentity {
		cols += "identity_key, "
	} else {
		cols += "NULL, "
	}
	if d.hasDisabledCause {
		cols += "disabled_cause"
	} else {
		cols += "NULL"
	}
	q := "SELECT " + cols + " FROM auth_credentials"
	if len(cond) > 0 {
		q += " WHERE " + strings.Join(cond, " AND ")
	}
	rs, err := on.QueryContext(ctx, q+" ORDER BY id ASC", args...)
	if err != nil {
		return nil, classify(d.path, err)
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		var r row
		var kind string
		var identity, disabled sql.NullString
		if err := rs.Scan(&r.id, &r.provider, &kind, &r.data, &identity, &disabled); err != nil {
			return nil, classify(d.path, err)
		}
		r.kind, r.identity, r.disabled = Kind(kind), strings.TrimSpace(identity.String), disabled.String
		c, err := DecodeData(r.kind, []byte(r.data))
		if err != nil {
			continue
		}
		r.cred = c
		if r.identity == "" {
			r.identity = IdentityKey(r.provider, c)
		}
		out = append(out, r)
	}
	return out, classify(d.path, rs.Err())
}

// active returns provider's active rows in id order.
func (d *DB) active(ctx context.Context, provider string) ([]row, error) {
	return d.query(ctx, "provider = ?", false, provider)
}

// byID returns one row, active or not; ok is false when it is gone.
func (d *DB) byID(ctx context.Context, id int64) (r row, ok bool, err error) {
	rows, err := d.query(ctx, "id = ?", true, id)
	if err != nil || len(rows) == 0 {
		return row{}, false, err
	}
	return rows[0], true, nil
}

// setClause is the SET list of an update of data, with identity_key and
// updated_at where the table has them.
func (d *DB) setClause() string {
	s := "data = ?"
	if d.hasIdentity {
		s += ", identity_key = NULLIF(?, '')"
	}
	if d.hasUpdated {
		s += ", updated_at = " + nowEpoch
	}
	return s
}

func (d *DB) setArgs(provider string, c Credential, data []byte) []any {
	args := []any{string(data)}
	if d.hasIdentity {
		args = append(args, IdentityKey(provider, c))
	}
	return args
}

// replaceData writes c into row id if the row still holds old (and is
// active); swapped is false when another writer changed it first.
func (d *DB) replaceData(ctx context.Context, id int64, provider string, old string, c Credential) (swapped bool, err error) {
	data, err := c.EncodeData()
	if err != nil {
		return false, err
	}
	args := append(d.setArgs(provider, c, data), id, old)
	res, err := d.sql.ExecContext(ctx, "UPDATE auth_credentials SET "+d.setClause()+" WHERE id = ? AND data = ? AND "+d.activeClause(), args...)
	if err != nil {
		return false, classify(d.path, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// disable soft-deletes the rows matching where with cause, omp's way of
// removing a credential (the row stays for inspection). A table without a
// disabled_cause column (older than v1) cannot hold the cause; such a
// foreign file is left alone.
func (d *DB) disable(ctx context.Context, cause, where string, args ...any) (int64, error) {
	if d.missing || !d.hasDisabledCause {
		return 0, nil
	}
	if strings.TrimSpace(cause) == "" {
		cause = "disabled"
	}
	set := "disabled_cause = ?"
	if d.hasUpdated {
		set += ", updated_at = " + nowEpoch
	}
	res, err := d.sql.ExecContext(ctx, "UPDATE auth_credentials SET "+set+" WHERE ("+where+") AND disabled_cause IS NULL", append([]any{cause}, args...)...)
	if err != nil {
		return 0, classify(d.path, err)
	}
	return res.RowsAffected()
}

// insert adds an active row for c.
func insert(ctx context.Context, tx *sql.Tx, provider string, c Credential) error {
	data, err := c.EncodeData()
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO auth_credentials (provider, credential_type, data, identity_key, created_at, updated_at) VALUES (?, ?, ?, NULLIF(?, ''), "+nowEpoch+", "+nowEpoch+")",
		provider, string(c.Kind), string(data), IdentityKey(provider, c))
	return err
}

// save stores a new credential for provider in one transaction, as omp's
// login does. A sign-in replaces the active sign-in of the same identity
// (or is added beside the others); an API key replaces every active
// credential of the provider unless keep, when it is added beside them.
// Rows that were replaced are soft-deleted ("replaced by newer
// credential"); soft-deleted rows of the identity just stored are purged.
func (d *DB) save(ctx context.Context, provider string, c Credential, keep bool) error {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return classify(d.path, err)
	}
	defer tx.Rollback()
	identity := IdentityKey(provider, c)
	existing, err := d.queryOn(ctx, tx, "provider = ?", false, provider)
	if err != nil {
		return err
	}
	const replaced = "replaced by newer credential"
	for _, r := range existing {
		same := r.kind == c.Kind && (c.Kind == KindAPIKey && r.cred.Key == c.Key || c.Kind == KindOAuth && identity != "" && r.identity == identity)
		if same || c.Kind == KindAPIKey && !keep {
			if _, err := tx.ExecContext(ctx, "UPDATE auth_credentials SET disabled_cause = ?, updated_at = "+nowEpoch+" WHERE id = ?", replaced, r.id); err != nil {
				return classify(d.path, err)
			}
		}
	}
	if err := insert(ctx, tx, provider, c); err != nil {
		return classify(d.path, err)
	}
	if identity != "" {
		if _, err := tx.ExecContext(ctx, "DELETE FROM auth_credentials WHERE provider = ? AND identity_key = ? AND disabled_cause IS NOT NULL", provider, identity); err != nil {
			return classify(d.path, err)
		}
	}
	return classify(d.path, tx.Commit())
}

// DBError is an agent.db gopi cannot use: the file, what is wrong and what
// to do, in one line.
type DBError struct {
	Path    string // the database file
	Problem string // what is wrong with it
	Fix     string // what the user can do
	Err     error  // the SQLite error, when there is one
}

// Error is the one-line message: file, problem, fix.
func (e *DBError) Error() string { return e.Path + ": " + e.Problem + "; " + e.Fix }

// Unwrap returns the SQLite error.
func (e *DBError) Unwrap() error { return e.Err }

// SQLite's primary result codes that classify tells apart.
const (
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteReadOnly = 8
	sqliteCorrupt  = 11
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// classify turns a SQLite failure into a DBError that says what to do; nil
// and errors already classified pass through.
func classify(path string, err error) error {
	if err == nil {
		return nil
	}
	var de *DBError
	if errors.As(err, &de) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var se *sqlite.Error
	code := -1
	if errors.As(err, &se) {
		code = se.Code() & 0xff
	}
	msg := err.Error()
	switch code {
	case sqliteBusy, sqliteLocked:
		return &DBError{Path: path, Problem: "locked by another process", Fix: "close the other gopi or omp that holds it (or wait for it) and try again", Err: err}
	case sqliteCorrupt, sqliteNotADB:
		return &DBError{Path: path, Problem: "not a readable SQLite database (" + msg + ")", Fix: "move it aside and log in again; gopi did not change it", Err: err}
	case sqliteReadOnly:
		return &DBError{Path: path, Problem: "cannot be written (" + msg + ")", Fix: "check the permissions of the file and its directory", Err: err}
	case sqliteCantOpen:
		return &DBError{Path: path, Problem: "cannot be opened (" + msg + ")", Fix: "check that the path is a file and its directory is readable", Err: err}
	}
	return &DBError{Path: path, Problem: msg, Fix: "check the file, or move it aside and log in again", Err: err}
}
