package edits

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Preview limits: a rename of a common name can touch hundreds of places,
// and the preview is for deciding whether to apply, not for reading them
// all.
const (
	previewEditsPerFile = 20 // edit lines shown under a file; the rest are counted
	previewTextRunes    = 50 // characters of a replacement shown before "…"
)

// Preview describes what edit would change, one line per entry, for
// "Rename preview:" (the caller adds the heading and indents): per file
// "a.go: 3 edits" followed by one indented line per text edit,
// `line 4:7 → "NewName"` (1-based line and column, the replacement cut to
// 50 characters with line breaks shown as \n, at most 20 lines and then a
// count of the rest), and the resource operations as "CREATE: b.go",
// "RENAME: a.go → b.go" and "DELETE: c.go". display renders the absolute
// paths of file URIs (nil: as they are); other URIs are shown as sent.
// When the edit has DocumentChanges its Changes are ignored, as the
// protocol says.
func Preview(edit protocol.WorkspaceEdit, display func(abs string) string) string {
	if display == nil {
		display = func(abs string) string { return abs }
	}
	show := func(u protocol.DocumentURI) string {
		if p, err := u.Path(); err == nil {
			return display(p)
		}
		return string(u)
	}
	var lines []string
	for _, c := range Sequence(edit) {
		switch {
		case c.Edit != nil:
			lines = appendFileEdits(lines, show(c.Edit.TextDocument.URI), c.Edit.Edits)
		case c.Create != nil:
			lines = append(lines, "CREATE: "+show(c.Create.URI))
		case c.Rename != nil:
			lines = append(lines, "RENAME: "+show(c.Rename.OldURI)+" → "+show(c.Rename.NewURI))
		case c.Delete != nil:
			lines = append(lines, "DELETE: "+show(c.Delete.URI))
		}
	}
	return strings.Join(lines, "\n")
}

// appendFileEdits adds a file's line and the lines of its first edits.
func appendFileEdits(lines []string, file string, edits []protocol.TextEdit) []string {
	noun := "edits"
	if len(edits) == 1 {
		noun = "edit"
	}
	lines = append(lines, fmt.Sprintf("%s: %d %s", file, len(edits), noun))
	for i, e := range edits {
		if i == previewEditsPerFile {
			lines = append(lines, fmt.Sprintf("  … %d more", len(edits)-i))
			break
		}
		lines = append(lines, fmt.Sprintf("  line %s → %q", posText(e.Range.Start), previewText(e.NewText)))
	}
	return lines
}

// previewText is a replacement cut to previewTextRunes characters.
func previewText(s string) string {
	r := []rune(s)
	if len(r) > previewTextRunes {
		return string(r[:previewTextRunes]) + "…"
	}
	return s
}
