package find

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// fdBase is the search directory arg as fd prints it before each result
// (joinClean(fdBase(arg), rel) is the path printed: as typed but cleaned,
// "./" kept for "."), worked out once per search directory rather than once
// per path printed (cleaning every joined path was 5 % of listing 200,000
// files): "" for no directory, "." for the current one, else arg cleaned
// and slash-separated.
func fdBase(arg string) string {
	if arg == "" {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(arg))
}

// joinClean joins a base from fdBase and a clean relative path from the
// walk, which gives a clean path without cleaning it again.
func joinClean(base, rel string) string {
	switch base {
	case "":
		return rel
	case ".":
		return "./" + rel
	case "/":
		return "/" + rel
	}
	if rel == "" {
		return base
	}
	return base + "/" + rel
}

// ignoresCase applies fd's smart case: a pattern without upper-case
// letters matches case-insensitively, one with any matches case-sensitively,
// unless -i (ignoreCase) or -s (caseSensitive) forces the choice.
func ignoresCase(pattern string, ignoreCase, caseSensitive bool) bool {
	switch {
	case ignoreCase:
		return true
	case caseSensitive:
		return false
	}
	return !strings.ContainsFunc(pattern, unicode.IsUpper)
}

// fdGlob applies fd's convention: a glob without '/' matches names at
// any depth. An empty glob lists everything.
func fdGlob(g string) string {
	switch {
	case g == "":
		return "**"
	case strings.HasPrefix(g, "/"):
		return strings.TrimPrefix(g, "/")
	case !strings.Contains(g, "/"):
		return "**/" + g
	}
	return g
}

// hint explains an empty result whose pattern was probably meant
// another way: a directory name, a regex, or a bare word that fd would
// find inside names.
func hint(pattern string, regexMode, fuzzyMode bool) string {
	if pattern == "" || regexMode || fuzzyMode {
		return ""
	}
	if info, err := os.Stat(pattern); err == nil && info.IsDir() {
		return fmt.Sprintf("%q is a directory, but the first argument is the pattern: to list what is in it, run gopi find '' %s", pattern, pattern)
	}
	if strings.ContainsAny(pattern, "^$+()|\\") || strings.Contains(pattern, ".*") {
		return fmt.Sprintf("the pattern is a glob, and %q looks like a regex: pass --regex to use it as one", pattern)
	}
	if !strings.ContainsAny(pattern, "*?[{/") {
		return fmt.Sprintf("the pattern is a glob that must match a whole name: to find names containing %q, use '*%s*' (or --regex %s)", pattern, pattern, pattern)
	}
	return ""
}
