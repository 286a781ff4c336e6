package edit

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/applypatch"
)

// patchDescription tells the model how to use patch mode.
const patchDescription = `Change one file with diff hunks: path names the file, edits lists the operations, applied in order.

Operations:
- {"op": "update", "diff": HUNKS} changes the file; add "rename": NEW_PATH to move it as well.
- {"op": "create", "diff": CONTENT} writes the whole file (plain text, no "+" prefixes needed).
- {"op": "delete"} removes it.

HUNKS is one or more hunks. A hunk starts with "@@" alone, or "@@ TEXT" where TEXT is copied from a
line of the file (a function signature, a class line) that comes at or before the change and tells
it apart. Then come the hunk's lines: " " plus a line that stays, "-" plus a line to remove, "+" plus
a line to add. Copy context and removed lines exactly as the file has them (indentation included)
and give enough of them (two to eight, usually) for the place to be unique.

Example: {"path": "app.py", "edits": [{"op": "update", "diff": "@@ def greet():\n def greet():\n-    print('Hi')\n+    print('Hello')\n"}]}

If the lines are not found or match in several places, nothing is changed for that operation and the
error says so: read the file again and write the hunk from its current content. Use separate calls
for separate files.`

// patchModeArgs are patch mode's arguments.
type patchModeArgs struct {
	Path  string           `json:"path"`
	Edits []patchModeEntry `json:"edits"`
}

// patchModeEntry is one operation on the file.
type patchModeEntry struct {
	Op     string `json:"op"`     // create, delete or update (default)
	Rename string `json:"rename"` // update: the file's new path
	Diff   string `json:"diff"`   // update: hunks; create: the content
}

// patchSchema is patch mode's parameter schema (omp's, field for field).
func patchSchema() *tool.Schema {
	entry := tool.Object(map[string]*tool.Schema{
		"op":     {Type: "string", Enum: []any{"create", "delete", "update"}, Description: "What to do with the file (default: update)"},
		"rename": tool.String("update: the path to move the file to"),
		"diff":   tool.String("update: the diff hunks; create: the whole content"),
	})
	entry.AdditionalProperties = tool.Ptr(false)
	return tool.Object(map[string]*tool.Schema{
		"path":  tool.String("The file the operations apply to"),
		"edits": {Type: "array", Items: entry, MinItems: tool.Ptr(1), Description: "Operations on the file, in order"},
	}, "path", "edits")
}

// runPatch applies the operations of one patch-mode call in order. Each
// operation is all or nothing; one that fails is reported and the next
// still runs, as in the reference. The call fails when any operation did.
func (t *Tool) runPatch(a patchModeArgs) (*tool.Result, error) {
	if strings.TrimSpace(a.Path) == "" {
		return nil, errors.New("path is empty: name the file the edits apply to")
	}
	if len(a.Edits) == 0 {
		return nil, errors.New(`edits is empty: give at least one operation, e.g. {"op": "update", "diff": "@@ ..."}`)
	}
	var abs []string
	for _, p := range append([]string{a.Path}, renames(a.Edits)...) {
		if err := t.refusePath(p); err != nil {
			return nil, err
		}
		abs = append(abs, t.Abs(p))
	}
	unlock, err := lock(abs...)
	if err != nil {
		return nil, err
	}
	defer unlock()

	details := &Details{Mode: string(tool.EditPatch)}
	var texts, diffs []string
	var results []FileResult
	failed := 0
	for _, e := range a.Edits {
		text, changes, err := t.patchOp(a.Path, e)
		if err != nil {
			if len(a.Edits) == 1 {
				return nil, err
			}
			texts = append(texts, fmt.Sprintf("Error editing %s: %v", a.Path, err))
			failed++
			continue
		}
		texts = append(texts, text)
		for _, c := range changes {
			fr := t.recordChange(c, details)
			results = append(results, fr)
			if fr.Diff != "" {
				diffs = append(diffs, fr.Diff)
			}
			if details.FirstChangedLine == 0 {
				details.FirstChangedLine = fr.FirstChangedLine
			}
		}
	}
	text := strings.Join(texts, "\n")
	if failed > 0 {
		return nil, &tool.Error{Msg: text}
	}
	details.Diff = strings.Join(diffs, "\n")
	if len(results) == 1 {
		details.Path, details.Op = results[0].Path, results[0].Op
	}
	return tool.TextResult(withWarnings(text, details.Warnings), details), nil
}

// recordChange describes a change an operation made (see changeResult),
// hands the file written to the language servers, and adds to details'
// warnings when the change lies outside the working directory.
func (t *Tool) recordChange(c applypatch.Change, details *Details) FileResult {
	fr, edits := changeResult(c)
	if c.Kind != applypatch.DeleteFile {
		t.diag.changed(cmp.Or(c.NewAbs, c.AbsPath), cmp.Or(c.NewPath, c.Path), edits)
	}
	for _, p := range []string{c.AbsPath, c.NewAbs} {
		if w := t.env.OutsideCwdWarning(p); p != "" && w != "" && !slices.Contains(details.Warnings, w) {
			details.Warnings = append(details.Warnings, w)
		}
	}
	return fr
}

// renames lists the rename targets of the entries.
func renames(edits []patchModeEntry) []string {
	var out []string
	for _, e := range edits {
		if e.Rename != "" {
			out = append(out, e.Rename)
		}
	}
	return out
}

// patchOp applies one operation to the file at path and returns the
// result's line with what changed on disk.
func (t *Tool) patchOp(path string, e patchModeEntry) (string, []applypatch.Change, error) {
	op := applypatch.FileOp{Kind: applypatch.UpdateFile, Path: path, MovePath: e.Rename, Diff: e.Diff}
	text := "Updated " + path
	switch e.Op {
	case "create":
		op.Kind, text = applypatch.AddFile, "Created "+path
	case "delete":
		op.Kind, text = applypatch.DeleteFile, "Deleted "+path
	default:
		if e.Rename != "" {
			text = fmt.Sprintf("Updated and moved %s to %s", path, e.Rename)
		}
	}
	changes, err := applypatch.ApplyOp(op, t)
	return text, changes, err
}
