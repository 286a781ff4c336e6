package read

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// maxNotebookBytes bounds the notebook files converted to text (stored
// outputs can make them large); bigger ones are read with :raw.
var maxNotebookBytes int64 = 64 << 20

// isNotebook reports whether abs names a Jupyter notebook.
func isNotebook(abs string) bool { return strings.EqualFold(filepath.Ext(abs), ".ipynb") }

// readNotebook shows a notebook as text: each cell is a line
// "# %% [TYPE] cell:N" (N from 0) followed by the cell's source, and line
// selectors apply to that text. Outputs are not shown. The text is not the
// file's, so it carries no edit anchors and is not recorded in the read
// cache.
func (t *Tool) readNotebook(ctx context.Context, r *resolved, sel Selector, d *Details) (string, error) {
	if r.info.Size() > maxNotebookBytes {
		return "", tool.Errorf("Cannot read notebook %s: it is %s, over the %s read converts; read it as JSON with %s:raw and a line range.",
			r.display, tool.FormatSize(r.info.Size()), tool.FormatSize(maxNotebookBytes), r.display)
	}
	var data []byte
	var err error
	if t.env.Files != nil {
		data, err = t.env.Files.ReadFile(ctx, r.abs)
	} else {
		data, err = os.ReadFile(r.abs)
	}
	if err != nil {
		return "", tool.Errorf("Cannot read %s: %v", r.display, unwrapPathError(err))
	}
	text, err := notebookText(data)
	if err != nil {
		return "", tool.Errorf("Cannot read notebook %s: %v; read it with %s:raw to see the file as text.", r.display, err, r.display)
	}
	if text == "" {
		d.Truncation = &Window{}
		return "(empty notebook: no cells)", nil
	}
	out, _, err := t.render(strings.NewReader(text), sel, r.display, t.env.DisplayMode(sel.Raw, true), d)
	return out, err
}

// notebookCell is the part of a notebook cell the text shows.
type notebookCell struct {
	CellType *string        `json:"cell_type"`
	Source   notebookSource `json:"source"`
}

// notebookSource is a cell's source: one string, or a list of strings
// (lines with their line ends) to join.
type notebookSource string

// UnmarshalJSON accepts a string, a list of strings, or null.
func (s *notebookSource) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = notebookSource(one)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("its source is neither a string nor a list of strings")
	}
	*s = notebookSource(strings.Join(parts, ""))
	return nil
}

// notebookText converts a notebook (nbformat 4) to its cell text. Cells
// are joined with "\n"; each is its marker line, "\n", and its source as
// stored, so a source ending in a newline leaves an empty line before the
// next marker.
func notebookText(data []byte) (string, error) {
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("it is not valid JSON (%s)", jsonProblem(data, err))
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return "", errors.New("it is JSON but not a notebook (the top level is not an object)")
	}
	if _, ok := obj["cells"].([]any); !ok {
		hint := ""
		if _, v3 := obj["worksheets"]; v3 {
			hint = "; it looks like an nbformat 3 notebook, which jupyter nbconvert --to notebook upgrades"
		}
		return "", errors.New(`it has no "cells" list, so it is not an nbformat 4 notebook` + hint)
	}
	var nb struct {
		Cells []json.RawMessage `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return "", fmt.Errorf("its cells cannot be decoded (%v)", err)
	}
	parts := make([]string, 0, len(nb.Cells))
	for i, raw := range nb.Cells {
		var c notebookCell
		if err := json.Unmarshal(raw, &c); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) || !strings.HasPrefix(strings.TrimSpace(string(raw)), "{") {
				return "", fmt.Errorf("cell %d is not an object with a cell_type and a source", i)
			}
			return "", fmt.Errorf("cell %d is invalid: %v", i, err)
		}
		switch {
		case c.CellType == nil:
			return "", fmt.Errorf("cell %d has no cell_type", i)
		case *c.CellType != "code" && *c.CellType != "markdown" && *c.CellType != "raw":
			return "", fmt.Errorf("cell %d has cell_type %q; notebooks have code, markdown and raw cells", i, *c.CellType)
		}
		parts = append(parts, "# %% ["+*c.CellType+"] cell:"+strconv.Itoa(i)+"\n"+string(c.Source))
	}
	return strings.Join(parts, "\n"), nil
}

// jsonProblem describes a JSON syntax error with its line and column.
func jsonProblem(data []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	off := int(se.Offset)
	if off > len(data) {
		off = len(data)
	}
	line := 1 + strings.Count(string(data[:off]), "\n")
	col := off - strings.LastIndexByte(string(data[:off]), '\n')
	return fmt.Sprintf("%v at line %d, column %d", err, line, col)
}
