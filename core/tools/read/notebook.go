package read

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/notebook"
)

// isNotebook reports whether abs names a Jupyter notebook.
func isNotebook(abs string) bool { return strings.EqualFold(filepath.Ext(abs), ".ipynb") }

// readNotebook shows a notebook as text: each cell is a line
// "# %% [TYPE] cell:N" (N from 0) followed by the cell's source, and line
// selectors apply to that text. Outputs are not shown. The edit tool
// edits notebooks as this same text, so its lines carry edit anchors, as
// in omp; like omp, read does not record it in the read cache (the edit
// tool records the text it writes).
func (t *Tool) readNotebook(ctx context.Context, r *resolved, sel Selector, d *Details) (string, error) {
	if r.info.Size() > t.caps.notebookBytes {
		return "", tool.Errorf("Cannot read notebook %s: it is %s, over the %s read converts; read it as JSON with %s:raw and a line range.",
			r.display, tool.FormatSize(r.info.Size()), tool.FormatSize(t.caps.notebookBytes), r.display)
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
	text, err := notebook.Text(data)
	if err != nil {
		return "", tool.Errorf("Cannot read notebook %s: %v; read it with %s:raw to see the file as text.", r.display, err, r.display)
	}
	if text == "" {
		d.Truncation = &Window{}
		return "(empty notebook: no cells)", nil
	}
	out, _, err := t.render(strings.NewReader(text), sel, r.display, t.env.DisplayMode(sel.Raw, false), d)
	return out, err
}
