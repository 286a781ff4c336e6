package astgrep

import (
	"errors"
	"os"
	"time"
)

// OutlineSpan is a run of whole lines, 1-based and inclusive.
type OutlineSpan struct {
	Start, End int
}

// Errors of Outline.
var (
	// ErrOutlineSyntax: the source has syntax errors (a summary could
	// hide where it is broken).
	ErrOutlineSyntax = errors.New("astgrep: source has syntax errors")
	// ErrOutlineUnsupported: the language has no outline rules or no
	// grammar in this build.
	ErrOutlineUnsupported = errors.New("astgrep: no outline for this language")
	// ErrOutlineNotUTF8: the engine parses UTF-8 text only.
	ErrOutlineNotUTF8 = errors.New("astgrep: source is not UTF-8")
)

// FileStamp is what a caller saw of a file before reading it: the parse
// cache keeps a tree under it and trusts it to name the same content as
// long as size, modification time, inode, device and (where the system
// has one) status-change time are unchanged (a file modified within two
// seconds of being cached is also checked by a hash of its content).
type FileStamp struct {
	Size     int64
	ModTime  time.Time
	Ino, Dev uint64
	// ChangeTime is the status-change time, zero where unknown: a stamp
	// without it never matches one the library took itself on Unix.
	ChangeTime time.Time
}

// StampOf returns the stamp of a file from its FileInfo (taken before the
// file was read).
func StampOf(fi os.FileInfo) *FileStamp {
	st := &FileStamp{Size: fi.Size(), ModTime: fi.ModTime()}
	st.Ino, st.Dev, st.ChangeTime = inodeOf(fi)
	return st
}
