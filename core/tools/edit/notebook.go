package edit

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/tools/notebook"
)

// A Jupyter notebook (.ipynb) is edited as the text view read shows
// ("# %% [code] cell:N" lines, each followed by the cell's source), in
// every mode: the modes load and save text, and the notebook's cells are
// written back from the edited view, keeping outputs, metadata, ids and
// the file's JSON formatting (package notebook). Anchors are the view's,
// so they match what read showed.

// isNotebook reports whether abs names a Jupyter notebook.
func isNotebook(abs string) bool { return strings.EqualFold(filepath.Ext(abs), ".ipynb") }

// parseNotebook reads a notebook file for editing, refusing one that is
// not a notebook with what to do about it.
func parseNotebook(raw []byte, shown string) (*notebook.Doc, error) {
	nb, err := notebook.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("Cannot edit notebook %s: %v. Fix the file first (%s:raw shows its JSON), or replace it whole with write.", shown, err, shown)
	}
	return nb, nil
}

// applyNotebook writes the edited text view into nb, returning the new
// file and its text view.
func applyNotebook(nb *notebook.Doc, text, shown string) ([]byte, string, error) {
	data, view, err := nb.ApplyView(text)
	if err != nil {
		return nil, "", fmt.Errorf("Cannot edit notebook %s: %v.", shown, err)
	}
	return data, view, nil
}
