package printer

import (
	"path/filepath"
	"strings"
)

// DisplayPath is what the user sees for a result path: a file argument as
// typed, a path below a directory argument joined to it the way ripgrep
// does (no cleaning: "./" stays, a final '/' is not doubled).
func DisplayPath(arg, rel string, isFile bool) string {
	switch {
	case isFile:
		return arg
	case arg == "":
		return rel
	case strings.HasSuffix(arg, "/"):
		return arg + rel
	}
	return filepath.ToSlash(arg) + "/" + rel
}
