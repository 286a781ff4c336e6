// Package innerpath splits a tool path that reaches inside a file into the
// file and the part inside it. Two kinds are understood, and the read and
// write tools share this one parser for both:
//
//   - an archive member: "a.zip:dir/f.txt", "b.tar.gz:x", "c.tgz:", where
//     the file name ends in .zip, .tar, .tar.gz or .tgz and is followed by
//     ':' (or ends the path);
//   - a SQLite table or row: "app.db:users", "app.db:users:42",
//     "app.db:users?where=…", "app.db?q=…", where the file name ends in
//     .db, .db3, .sqlite or .sqlite3 and is followed by ':', '?' or the
//     end of the path.
//
// A path can be read several ways ("o.zip:i.tgz:f" names o.zip's member
// "i.tgz:f" or, were there a file called "o.zip:i.tgz", its member "f"),
// so the splitters return every reading, shortest file first; which file
// exists decides, and that is for the caller to look up. Nothing here
// touches the disk but IsDatabaseFile, which reads a file's header.
package innerpath

import (
	"errors"
	"strings"
)

// ArchiveFormat is a container format named by a file's extension.
type ArchiveFormat int

// The archive formats understood.
const (
	Zip   ArchiveFormat = iota + 1 // .zip
	Tar                            // .tar
	TarGz                          // .tar.gz, .tgz
)

// archiveExts maps file name endings (compared in lower case) to formats.
// ".tar.gz" comes before ".tar" is considered because it is longer.
var archiveExts = []struct {
	ext    string
	format ArchiveFormat
}{
	{".tar.gz", TarGz},
	{".tgz", TarGz},
	{".tar", Tar},
	{".zip", Zip},
}

// ArchiveFormatOf names the format of an archive file by its extension.
func ArchiveFormatOf(name string) (ArchiveFormat, bool) {
	lower := strings.ToLower(name)
	for _, e := range archiveExts {
		if strings.HasSuffix(lower, e.ext) {
			return e.format, true
		}
	}
	return 0, false
}

// ArchiveSplit is one reading of a path as archive file plus member path.
type ArchiveSplit struct {
	Archive string        // the archive file, as written in the path
	Inner   string        // the part after the ':'s that follow it ("" = the root)
	Format  ArchiveFormat // format named by the archive's extension
	// HasInner reports that a ':' follows the archive ("a.zip:" has one,
	// "a.zip" has none): the path names something inside it.
	HasInner bool
}

// ArchiveSplits lists every way p (a path without a read line selector)
// can name something inside an archive: each place where an archive
// extension is followed by ':' or ends p. A run of ':' after the archive
// counts as one ("a.zip::f" is member "f"). The shortest archive path
// comes first, so "outer.zip:inner.tgz:f" splits at outer.zip before
// outer.zip:inner.tgz.
func ArchiveSplits(p string) []ArchiveSplit {
	var out []ArchiveSplit
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != ':' {
			continue
		}
		f, ok := ArchiveFormatOf(p[:i])
		if !ok {
			continue
		}
		s := ArchiveSplit{Archive: p[:i], Format: f}
		if i < len(p) {
			s.Inner, s.HasInner = strings.TrimLeft(p[i+1:], ":"), true
		}
		out = append(out, s)
	}
	return out
}

// ErrDotDot is returned by CleanMember for a path with a ".." segment:
// archive paths are named from the root, never through "..".
var ErrDotDot = errors.New(`path has a ".." segment`)

// CleanMember normalises a path inside an archive: backslashes count as
// separators, "." segments and empty segments go. The result has no
// leading or trailing slash ("" is the archive root). A ".." segment is
// ErrDotDot, so no path can climb out of the archive (zip slip).
//
// abs reports whether the path starts at a root (a leading separator, or
// a drive such as "C:\"): archive members named that way are not served,
// while a selector may use a leading "/" for the archive's root.
func CleanMember(p string) (clean string, abs bool, err error) {
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "/") || (len(p) >= 3 && p[1] == ':' && p[2] == '/' && isASCIILetter(p[0])) {
		abs = true
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			return "", abs, ErrDotDot
		default:
			segs = append(segs, s)
		}
	}
	return strings.Join(segs, "/"), abs, nil
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
