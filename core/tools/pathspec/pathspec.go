// Package pathspec parses the path arguments of the search and find tools:
// each entry is a file, a directory, or a path whose later segments are a
// glob, and a call may name several entries.
//
// An entry splits at its first segment holding a glob character (*, ?, [
// or {): the segments before it are the base directory, the rest is the
// glob, matched against paths relative to the base. A glob in the first
// segment searches from the working directory and is made recursive
// ("*.go" becomes "**/*.go"); a later glob keeps its depth ("src/*.go"
// matches only direct children of src). An entry without a glob is its
// own base.
package pathspec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Spec is one parsed path entry.
type Spec struct {
	Input string      // the entry as given (trimmed, unquoted, slash-separated)
	Base  string      // absolute base path
	Glob  string      // glob relative to Base; "" when the entry has none
	Info  fs.FileInfo // stat of Base; nil when Base is missing
}

// IsFile reports whether the entry names one existing file (no glob).
func (s *Spec) IsFile() bool { return s.Glob == "" && s.Info != nil && !s.Info.IsDir() }

// HasGlobChars reports whether s holds a glob metacharacter.
func HasGlobChars(s string) bool { return strings.ContainsAny(s, "*?[{") }

// Normalize trims an entry, strips one pair of matching surrounding quotes
// and turns backslashes into slashes.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return strings.ReplaceAll(s, `\`, "/")
}

// Split divides an entry into its base path (as given, relative or
// absolute; "." for the working directory) and its glob.
func Split(entry string) (base, glob string) {
	if !HasGlobChars(entry) {
		return entry, ""
	}
	segs := strings.Split(entry, "/")
	for i, seg := range segs {
		if !HasGlobChars(seg) {
			continue
		}
		glob = strings.Join(segs[i:], "/")
		if i == 0 {
			if !strings.HasPrefix(glob, "**/") && glob != "**" {
				glob = "**/" + glob
			}
			return ".", glob
		}
		base = strings.Join(segs[:i], "/")
		if base == "" { // "/*.go": the root itself
			base = "/"
		}
		return base, glob
	}
	return entry, ""
}

// Parse normalizes, splits and stats each entry, resolving bases against
// env. A missing base leaves Info nil; other stat errors are returned.
func Parse(env *tool.Env, entries []string) ([]*Spec, error) {
	specs := make([]*Spec, 0, len(entries))
	for _, e := range entries {
		in := Normalize(e)
		base, glob := Split(in)
		s := &Spec{Input: in, Base: env.Resolve(base), Glob: glob}
		info, err := os.Stat(s.Base)
		switch {
		case err == nil:
			s.Info = info
		case !errors.Is(err, fs.ErrNotExist):
			return nil, tool.Errorf("Cannot access %s: %v", in, unwrap(err))
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// Partition separates entries whose base exists from missing ones.
func Partition(specs []*Spec) (present []*Spec, missing []string) {
	for _, s := range specs {
		if s.Info == nil {
			missing = append(missing, s.Input)
		} else {
			present = append(present, s)
		}
	}
	return present, missing
}

// SkippedNote renders the notice for skipped missing entries ("" when none).
func SkippedNote(missing []string) string {
	if len(missing) == 0 {
		return ""
	}
	return "Skipped missing paths: " + strings.Join(missing, ", ")
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Rel returns p relative to base, slash-separated.
func Rel(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}
