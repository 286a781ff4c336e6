// Package archive reads what zip, tar and tar.gz archives hold without
// extracting them: it names an archive by its extension, splits a path
// such as "a.tgz:dir/f.txt" into archive and member, cleans member paths
// so none climbs out of the archive, and indexes members under caps that
// stop decompression bombs. It knows nothing of tools or sessions; the
// read tool renders what it finds.
package archive

import (
	"errors"
	"strings"
)

// Format is a container format this package opens.
type Format int

// The archive formats understood.
const (
	Zip   Format = iota + 1 // .zip
	Tar                     // .tar
	TarGz                   // .tar.gz, .tgz
)

// extensions maps file name endings (compared in lower case) to formats.
// ".tar.gz" comes before ".tar" is considered because it is longer.
var extensions = []struct {
	ext    string
	format Format
}{
	{".tar.gz", TarGz},
	{".tgz", TarGz},
	{".tar", Tar},
	{".zip", Zip},
}

// FormatOf names the format of an archive file by its extension.
func FormatOf(name string) (Format, bool) {
	lower := strings.ToLower(name)
	for _, e := range extensions {
		if strings.HasSuffix(lower, e.ext) {
			return e.format, true
		}
	}
	return 0, false
}

// Split is one reading of a path as archive file plus member path.
type Split struct {
	Archive string // the archive file, as written in the path
	Inner   string // the part after the ':' that follows it ("" = the root)
	Format  Format // format named by the archive's extension
}

// Splits lists every way p (a path without its line selector) can name
// something inside an archive: each place where an archive extension is
// followed by ':' or ends p. The shortest archive path comes first, so
// "outer.zip:inner.tgz:f" splits at outer.zip before outer.zip:inner.tgz.
func Splits(p string) []Split {
	var out []Split
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != ':' {
			continue
		}
		f, ok := FormatOf(p[:i])
		if !ok {
			continue
		}
		s := Split{Archive: p[:i], Format: f}
		if i < len(p) {
			s.Inner = p[i+1:]
		}
		out = append(out, s)
	}
	return out
}

// ErrDotDot is returned by CleanPath for a path with a ".." segment:
// archive paths are named from the root, never through "..".
var ErrDotDot = errors.New(`path has a ".." segment`)

// CleanPath normalises a path inside an archive: backslashes count as
// separators, "." segments and empty segments go. The result has no
// leading or trailing slash ("" is the archive root). A ".." segment is
// ErrDotDot, so no path can climb out of the archive (zip slip).
//
// abs reports whether the path starts at a root (a leading separator, or
// a drive such as "C:\"): archive members named that way are not served
// (see Index), while a selector may use a leading "/" for the archive's
// root.
func CleanPath(p string) (clean string, abs bool, err error) {
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
