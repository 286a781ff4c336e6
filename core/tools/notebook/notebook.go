// Package notebook is the text view of a Jupyter notebook (nbformat 4
// JSON) that the read and edit tools share: one marker line per cell,
// "# %% [TYPE] cell:N" (N from 0), followed by the cell's source; outputs
// are left out. Text converts a file to its view; Parse and Doc.Apply
// write an edited view back into the file.
//
// Writing back changes bytes only where the view changed: the file is
// kept as it was read, with the spans of its cells and of their members
// (scan.go), and only a changed cell's changed members are written
// anew, in the style the file already uses (style.go: indentation, key
// separator, key order, ASCII escaping, line breaks). So a notebook saved
// by Jupyter diffs only in the edited cells' "source" lines, and keeps
// every cell's id, metadata, outputs and execution count, its nbformat
// version and its final newline. Errors say what is wrong with the file
// or the edit in words a user can act on.
package notebook

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// cell is the part of a notebook cell the text shows.
type cell struct {
	CellType *string `json:"cell_type"`
	Source   source  `json:"source"`
}

// source is a cell's source: one string, or a list of strings
// (lines with their line ends) to join.
type source string

// UnmarshalJSON accepts a string, a list of strings, or null (a null in
// the list counts as an empty string). b is one valid JSON value, as
// encoding/json hands it over.
func (s *source) UnmarshalJSON(b []byte) error {
	if v, ok := decodeSource(b); ok {
		*s = source(v)
		return nil
	}
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = source(one)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("its source is neither a string nor a list of strings")
	}
	*s = source(strings.Join(parts, ""))
	return nil
}

// Text converts a notebook (nbformat 4) to its cell text. Cells
// are joined with "\n"; each is its marker line, then "\n" and its source
// as stored unless the source is empty (as omp shows them), so a source
// ending in a newline leaves an empty line before the next marker.
//
// A well-formed notebook is converted from the spans of its cells
// (fast.go), decoding only their types and sources; anything else —
// invalid JSON, a file that is no notebook, keys a decoder could read in
// more than one way — goes through textDecoded, which says what is wrong.
func Text(data []byte) (string, error) {
	if text, ok := textFast(data); ok {
		return text, nil
	}
	return textDecoded(data)
}

// textDecoded is Text by decoding the whole file with encoding/json: the
// reference for what is accepted, and the source of every error's text.
func textDecoded(data []byte) (string, error) {
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
		var c cell
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
		parts = append(parts, cellText(*c.CellType, i, string(c.Source)))
	}
	return strings.Join(parts, "\n"), nil
}

// cellText is cell i of the text view: its marker line, and its source
// on the lines after it when it has one.
func cellText(kind string, i int, src string) string {
	if src == "" {
		return marker(kind, i)
	}
	return marker(kind, i) + "\n" + src
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
