package edit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/replace"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// replaceModeArgs are the arguments of replace mode: one file and the
// replacements to make in it, in order.
type replaceModeArgs struct {
	Path  string             `json:"path"`
	Edits []replaceModeEntry `json:"edits"`
}

// replaceModeEntry is one old/new text replacement.
type replaceModeEntry struct {
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
	All     bool   `json:"all"`
}

// replaceSchema is replace mode's parameter schema (omp's, field for field).
func replaceSchema() *tool.Schema {
	entry := tool.Object(map[string]*tool.Schema{
		"old_text": tool.String("Text to find, copied from the file (a match differing only in white space is accepted)"),
		"new_text": tool.String("Text to put in its place"),
		"all":      tool.Boolean("Replace every occurrence (otherwise the text must occur once)"),
	}, "old_text", "new_text")
	entry.AdditionalProperties = tool.Ptr(false)
	return tool.Object(map[string]*tool.Schema{
		"path":  tool.String("The file the replacements apply to"),
		"edits": {Type: "array", Items: entry, MinItems: tool.Ptr(1), Description: "Replacements, applied in order"},
	}, "path", "edits")
}

// runReplace applies the replacements of one call in order, each against
// the file as the previous one left it. Each replacement is written on
// its own; one that fails is reported and the next still runs, as in the
// reference. The call fails when any replacement did.
func (t *Tool) runReplace(a replaceModeArgs) (*tool.Result, error) {
	if strings.TrimSpace(a.Path) == "" {
		return nil, errors.New("path is empty: name the file the replacements apply to")
	}
	if len(a.Edits) == 0 {
		return nil, errors.New(`edits is empty: give at least one replacement, e.g. {"old_text": "a", "new_text": "b"}`)
	}
	abs := t.env.Resolve(a.Path)
	unlock, err := lock(abs)
	if err != nil {
		return nil, err
	}
	defer unlock()

	details := &Details{Mode: string(tool.EditReplace), Op: "update", Path: a.Path}
	var texts, diffs []string
	failed := 0
	for _, e := range a.Edits {
		text, d, first, err := t.replaceOne(abs, a.Path, e)
		if err != nil {
			if len(a.Edits) == 1 {
				return nil, err
			}
			texts = append(texts, fmt.Sprintf("Error editing %s: %v", a.Path, err))
			failed++
			continue
		}
		texts = append(texts, text)
		diffs = append(diffs, d)
		if details.FirstChangedLine == 0 {
			details.FirstChangedLine = first
		}
	}
	text := strings.Join(texts, "\n")
	if failed > 0 {
		return nil, &tool.Error{Msg: text}
	}
	details.Diff = strings.Join(diffs, "\n")
	if w := t.env.OutsideCwdWarning(abs); w != "" {
		details.Warnings = append(details.Warnings, w)
	}
	return tool.TextResult(withWarnings(text, details.Warnings), details), nil
}

// replaceOne makes one replacement in the file and writes it. It returns
// the result line, the unified diff and the first changed line.
func (t *Tool) replaceOne(abs, path string, e replaceModeEntry) (string, string, int, error) {
	if e.OldText == "" {
		return "", "", 0, replace.ErrEmptyOld
	}
	f, err := t.load(abs, path)
	if err != nil {
		return "", "", 0, err
	}
	if !f.exists {
		return "", "", 0, fmt.Errorf("File not found: %s", path)
	}
	crlf := strings.NewReplacer("\r\n", "\n")
	newText, m, err := replace.Replace(f.doc.Text, crlf.Replace(e.OldText), crlf.Replace(e.NewText), e.All, path)
	if err != nil {
		return "", "", 0, err
	}
	data, newText, err := f.settle(newText)
	if err != nil {
		return "", "", 0, err
	}
	if newText == f.doc.Text {
		return "", "", 0, fmt.Errorf("Edits to %s resulted in no changes being made.", path)
	}
	if err := t.commit(f, data, newText); err != nil {
		return "", "", 0, err
	}
	oldLines, oldFinal := textfile.Lines(f.doc.Text)
	newLines, newFinal := textfile.Lines(newText)
	edits := diff.Lines(oldLines, newLines)
	t.diag.changed(abs, path, edits)
	text := fmt.Sprintf("Successfully replaced text in %s.", path)
	if m.Count > 1 {
		text = fmt.Sprintf("Successfully replaced %d occurrences in %s.", m.Count, path)
	}
	return text, diff.UnifiedScript(path, edits, len(oldLines), len(newLines), oldFinal, newFinal), diff.FirstChange(edits), nil
}
