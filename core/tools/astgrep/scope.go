package astgrep

import (
	"fmt"
	"os"
	"strings"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/tool"
)

// ParseIssuesLimit caps the parse-issue lines a result shows.
const ParseIssuesLimit = 20

// Scope turns the tool's paths into an engine scope for env. It rejects
// empty entries and internal URLs (which have no backing files here), and
// reports whether results should be grouped by file: anything but a
// single plain file is.
func Scope(env *tool.Env, paths []string) (ast.Scope, bool, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if p == "" {
			return ast.Scope{}, false, tool.Errorf("Path entries must not be empty")
		}
		if strings.Contains(p, "://") {
			return ast.Scope{}, false, tool.Errorf("Internal URLs have no backing file to search: %s", p)
		}
		p = env.ExpandHome(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ast.Scope{}, false, tool.Errorf("Give at least one path: a file, a directory or a glob")
	}
	grouped := true
	if len(out) == 1 {
		if st, err := os.Stat(env.Resolve(out[0])); err == nil && !st.IsDir() {
			grouped = false
		}
	}
	return ast.Scope{Paths: out, Cwd: env.Cwd, ScanCache: env.Caches.ScanCache(), ParseCache: env.Caches.ParseCache(), Index: env.Caches.IndexFinder()}, grouped, nil
}

// ScopePath is the display form of a single-path scope ("" for several).
func ScopePath(env *tool.Env, sc ast.Scope) string {
	if len(sc.Paths) != 1 {
		return ""
	}
	return env.DisplayPath(env.Resolve(sc.Paths[0]))
}

// IssueStrings renders parse issues as "path: message", paths shown
// relative to the working directory.
func IssueStrings(env *tool.Env, issues []ast.ParseIssue) []string {
	out := make([]string, len(issues))
	for i, is := range issues {
		p := is.Path
		if !strings.HasPrefix(p, "<") {
			p = env.DisplayPath(env.Resolve(p))
		}
		out[i] = p + ": " + strings.ReplaceAll(is.Message, "\n", " ")
	}
	return out
}

// FormatIssues renders at most ParseIssuesLimit issue lines under a
// heading, with a count of the rest; "" when there are none.
func FormatIssues(issues []string) string {
	if len(issues) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Parse issues:\n")
	for i, is := range issues {
		if i == ParseIssuesLimit {
			fmt.Fprintf(&b, "… %d more\n", len(issues)-ParseIssuesLimit)
			break
		}
		b.WriteString("- ")
		b.WriteString(is)
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// AppendUnsupported adds to text, after a blank line, one line per
// language whose files were left out because gopi has no grammar for it,
// so that "no matches" is not read as "searched and absent".
func AppendUnsupported(text string, counts map[string]int) string {
	if notes := ast.UnsupportedNotes(counts); len(notes) > 0 {
		text += "\n\n" + strings.Join(notes, "\n")
	}
	return text
}
