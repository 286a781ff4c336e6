package write

import (
	"archive/tar"
	"archive/zip"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tools/innerpath"
)

// entryWrite is one write of an archive member, as the zip and tar
// rewriters carry it out.
type entryWrite struct {
	member  string    // the member's clean path inside the archive
	archive string    // the archive as the model named it, for messages
	data    []byte    // the new content
	now     time.Time // the member's new modification time
}

// is reports whether the member stored as name is the one written: the
// same path once cleaned. Members with an absolute or ".." path never
// are (the read tool does not serve them either); they are kept as they
// are.
func (e entryWrite) is(name string) bool {
	clean, abs, err := innerpath.CleanMember(name)
	return err == nil && !abs && clean == e.member
}

// memberError is a write the archive's layout refuses; its text is the
// whole message the model sees.
type memberError struct{ msg string }

func (e *memberError) Error() string { return e.msg }

// conflict refuses the write when the member stored as name (a directory
// when dir) is in its way: the written path is a directory in the
// archive, or one of its parents is a file there.
func (e entryWrite) conflict(name string, dir bool) error {
	clean, abs, err := innerpath.CleanMember(name)
	if err != nil || abs || clean == "" {
		return nil
	}
	switch {
	case clean == e.member && dir, strings.HasPrefix(clean, e.member+"/"):
		return &memberError{fmt.Sprintf("Archive write path must target a file, not a directory: %s is a directory in %s; name a file inside it, e.g. %s:%s/notes.txt.",
			e.member, e.archive, e.archive, e.member)}
	case !dir && strings.HasPrefix(e.member, clean+"/"):
		return &memberError{fmt.Sprintf("Cannot write %s:%s: %s is a file in %s, not a directory; choose a path that does not pass through it.",
			e.archive, e.member, clean, e.archive)}
	}
	return nil
}

// tarHeader is the header of the written member: a regular file with
// the time of the write, taking name, owner and permission bits from the
// member it replaces (old; nil for a new member: mode 0644, owner 0).
func (e entryWrite) tarHeader(old *tar.Header) *tar.Header {
	h := &tar.Header{Typeflag: tar.TypeReg, Name: e.member, Mode: 0o644, Size: int64(len(e.data)), ModTime: e.now.Truncate(time.Second)}
	if old != nil {
		h.Name, h.Uid, h.Gid, h.Uname, h.Gname = old.Name, old.Uid, old.Gid, old.Uname, old.Gname
		if old.FileInfo().Mode().IsRegular() {
			h.Mode = old.Mode & 0o7777
		}
	}
	return h
}

// zipHeader is the header of the written member: deflated, with the time
// of the write, taking name, comment, attributes and a stored (not
// compressed) method from the member it replaces (old; nil for a new
// member: deflated, mode 0644).
func (e entryWrite) zipHeader(old *zip.FileHeader) *zip.FileHeader {
	fh := &zip.FileHeader{Name: e.member, Method: zip.Deflate, Modified: e.now}
	fh.SetMode(0o644)
	if old == nil {
		return fh
	}
	fh.Name, fh.Comment, fh.NonUTF8 = old.Name, old.Comment, old.NonUTF8
	if old.Mode().IsRegular() {
		fh.CreatorVersion, fh.ExternalAttrs = old.CreatorVersion, old.ExternalAttrs
	}
	if old.Method == zip.Store {
		fh.Method = zip.Store
	}
	return fh
}
