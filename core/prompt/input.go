package prompt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResolveInput turns the value of --system-prompt or
// --append-system-prompt into text: when the value names an existing
// regular file (relative to cwd; "~/" is home), the file's contents;
// otherwise the value itself. A value spanning several lines is always
// text. A file that exists but cannot be read is an error, not silently
// taken as text.
func ResolveInput(value, cwd, home string) (string, error) {
	if value == "" || strings.ContainsAny(value, "\n\r") {
		return value, nil
	}
	path := value
	if home != "" && (path == "~" || strings.HasPrefix(path, "~/")) {
		path = filepath.Join(home, path[1:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return value, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read prompt file %s: %w (pass the text itself, or fix the file's permissions)", path, err)
	}
	return string(data), nil
}
