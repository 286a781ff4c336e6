package generated

import (
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// commentStyle is a set of comment syntaxes a file's opening block may use.
type commentStyle uint8

const (
	slashComments commentStyle = 1 << iota // // and /* */
	hashComments                           // #
	sqlComments                            // --
	htmlComments                           // <!-- -->
)

// stylesByExt maps a lower-case extension to its comment syntax.
var stylesByExt = map[string]commentStyle{
	".c": slashComments, ".cc": slashComments, ".cpp": slashComments, ".cs": slashComments,
	".dart": slashComments, ".go": slashComments, ".h": slashComments, ".hpp": slashComments,
	".java": slashComments, ".js": slashComments, ".jsx": slashComments, ".kt": slashComments,
	".kts": slashComments, ".mjs": slashComments, ".cjs": slashComments, ".php": slashComments,
	".rs": slashComments, ".scala": slashComments, ".swift": slashComments, ".ts": slashComments,
	".tsx": slashComments,
	".py":  hashComments, ".rb": hashComments, ".sh": hashComments, ".bash": hashComments,
	".zsh": hashComments, ".yml": hashComments, ".yaml": hashComments, ".toml": hashComments,
	".ini": hashComments, ".cfg": hashComments, ".conf": hashComments, ".env": hashComments,
	".pl": hashComments, ".r": hashComments,
	".sql":  sqlComments,
	".html": htmlComments, ".htm": htmlComments, ".xml": htmlComments, ".svg": htmlComments,
	".xhtml": htmlComments,
}

// stylesByName maps a lower-case base name to its comment syntax; it wins
// over the extension.
var stylesByName = map[string]commentStyle{
	"dockerfile": hashComments, "makefile": hashComments, "justfile": hashComments,
}

// commentStyles is the comment syntax of the file at path; 0 when its
// language is not known (its content is then never taken as a marker).
func commentStyles(path string) commentStyle {
	name := strings.ToLower(filepath.Base(path))
	if s, ok := stylesByName[name]; ok {
		return s
	}
	return stylesByExt[filepath.Ext(name)]
}

// openingComments returns the comment lines that open text (a "#!" first
// line skipped, blank lines inside kept as empty), trimmed and joined with
// "\n": the block a generator writes its notice in. It stops at the first
// line that is neither blank nor a comment, or after headerLineLimit lines.
func openingComments(text string, styles commentStyle) string {
	text = strings.TrimPrefix(text, "\uFEFF")
	var out []string
	started, inBlock, inHTML := false, false, false
	for i, line := range strings.Split(text, "\n") {
		if i >= headerLineLimit {
			break
		}
		t := jstext.Trim(strings.TrimSuffix(line, "\r"))
		switch {
		case i == 0 && strings.HasPrefix(t, "#!"):
			continue
		case inBlock:
			out = append(out, t)
			inBlock = !strings.Contains(t, "*/")
			continue
		case inHTML:
			out = append(out, t)
			inHTML = !strings.Contains(t, "-->")
			continue
		case t == "":
			if started {
				out = append(out, "")
			}
			continue
		case styles&slashComments != 0 && strings.HasPrefix(t, "//"):
		case styles&slashComments != 0 && strings.HasPrefix(t, "/*"):
			inBlock = !strings.Contains(t, "*/")
		case styles&hashComments != 0 && strings.HasPrefix(t, "#"):
		case styles&sqlComments != 0 && strings.HasPrefix(t, "--"):
		case styles&htmlComments != 0 && strings.HasPrefix(t, "<!--"):
			inHTML = !strings.Contains(t, "-->")
		default:
			return strings.Join(out, "\n")
		}
		started = true
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}
