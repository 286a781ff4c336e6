package read

import (
	"errors"
	"strings"
)

// archiveFormat is a container format read opens.
type archiveFormat int

// The archive formats read understands.
const (
	formatZip   archiveFormat = iota + 1 // .zip
	formatTar                            // .tar
	formatTarGz                          // .tar.gz, .tgz
)

// archiveExts maps file name endings (compared in lower case) to formats.
// ".tar.gz" comes before ".tar" is considered because it is longer.
var archiveExts = []struct {
	ext    string
	format archiveFormat
}{
	{".tar.gz", formatTarGz},
	{".tgz", formatTarGz},
	{".tar", formatTar},
	{".zip", formatZip},
}

// archiveFormatOf names the format of an archive file by its extension.
func archiveFormatOf(name string) (archiveFormat, bool) {
	lower := strings.ToLower(name)
	for _, e := range archiveExts {
		if strings.HasSuffix(lower, e.ext) {
			return e.format, true
		}
	}
	return 0, false
}

// archiveSplit is one reading of a path as archive file plus member path.
type archiveSplit struct {
	archive string        // the archive file, as written in the path
	inner   string        // the part after the ':' that follows it ("" = the root)
	format  archiveFormat // format named by the archive's extension
}

// archiveSplits lists every way p (a read path without its line selector)
// can name something inside an archive: each place where an archive
// extension is followed by ':' or ends p. The shortest archive path comes
// first, so "outer.zip:inner.tgz:f" splits at outer.zip before
// outer.zip:inner.tgz.
func archiveSplits(p string) []archiveSplit {
	var out []archiveSplit
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != ':' {
			continue
		}
		f, ok := archiveFormatOf(p[:i])
		if !ok {
			continue
		}
		s := archiveSplit{archive: p[:i], format: f}
		if i < len(p) {
			s.inner = p[i+1:]
		}
		out = append(out, s)
	}
	return out
}

// errDotDot is returned by cleanMemberPath for a path with a ".."
// segment: archive paths are named from the root, never through "..".
var errDotDot = errors.New(`path has a ".." segment`)

// cleanMemberPath normalises a path inside an archive: backslashes count
// as separators, "." segments and empty segments go. The result has no
// leading or trailing slash ("" is the archive root). A ".." segment is
// errDotDot, so no path can climb out of the archive (zip slip).
//
// abs reports whether the path starts at a root (a leading separator, or
// a drive such as "C:\"): archive members named that way are not served
// (see archiveIndex.add), while a selector may use a leading "/" for the
// archive's root.
func cleanMemberPath(p string) (clean string, abs bool, err error) {
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "/") || (len(p) >= 3 && p[1] == ':' && p[2] == '/' && isASCIILetter(p[0])) {
		abs = true
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			return "", abs, errDotDot
		default:
			segs = append(segs, s)
		}
	}
	return strings.Join(segs, "/"), abs, nil
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
