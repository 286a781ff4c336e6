package read

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

// What keeps a SQLite read a read: besides mode=ro and query_only (see
// openDatabase), an authorizer refuses, while a statement is compiled,
// everything that is not reading the one database — ATTACH and DETACH
// (which open or create other files), VACUUM INTO, schema and data
// changes, and pragmas that set something — and a time limit interrupts
// a query that runs too long.

// errSQLiteTimeLimit is the cause of a read stopped by its time limit.
var errSQLiteTimeLimit = errors.New("the SQLite read reached its time limit")

// sqliteTimeLimit is how long one read may run: the read.sqlite.timeoutMs
// setting, else config.DefaultSQLiteTimeout.
func (t *Tool) sqliteTimeLimit() time.Duration {
	if d := t.env.Settings.ReadSQLiteTimeout; d > 0 {
		return d
	}
	return config.DefaultSQLiteTimeout
}

// pragmasWithArgument are the pragmas that take an argument only to say
// what to describe; every other pragma given a value would change a
// setting, and is refused.
var pragmasWithArgument = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true,
	"index_info": true, "index_xinfo": true, "index_list": true,
	"foreign_key_list": true, "foreign_key_check": true,
	"integrity_check": true, "quick_check": true,
}

// pragmasThatAct are pragmas that do something even without a value.
var pragmasThatAct = map[string]bool{
	"wal_checkpoint": true, "optimize": true, "incremental_vacuum": true, "shrink_memory": true,
}

// sqliteAuthorize allows reading and nothing else.
func sqliteAuthorize(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthFunction, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthTransaction:
		// BEGIN and ROLLBACK of the read's own transaction.
		return sqlite.AuthorizerOK
	case sqlite.AuthPragma:
		name := strings.ToLower(arg1)
		if arg2 == "" && !pragmasThatAct[name] || arg2 != "" && pragmasWithArgument[name] {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

// guardConn installs sqliteAuthorize on the connection c.
func guardConn(c interface {
	Raw(func(any) error) error
}) error {
	return c.Raw(func(dc any) error {
		r, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("the SQLite driver cannot restrict statements (%T)", dc)
		}
		return r.RegisterAuthorizer(sqliteAuthorize)
	})
}

// sqliteRefused explains a statement the authorizer refused.
func sqliteRefused(name string, err error) error {
	return tool.Errorf("Cannot run that on %s: read only reads the one database it opens, so ATTACH, DETACH, VACUUM, statements that change the schema or data and pragmas that set a value are refused (%v); use SELECT, or a pragma that only reports, such as PRAGMA table_info(t).", name, err)
}

// sqliteTimedOut explains a read stopped by its time limit.
func sqliteTimedOut(name string, limit time.Duration) error {
	return tool.Errorf("Stopped reading %s: the query ran longer than %v, the time limit of one SQLite read. Narrow it (a WHERE on an indexed column, a LIMIT, fewer joins) or raise read.sqlite.timeoutMs in the settings.", name, limit)
}
