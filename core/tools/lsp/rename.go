package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/edits"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// rename renames the symbol at the position to new_name (fileAction
// checked it is set) with the server of cl: applied unless apply is
// false, previewed otherwise.
func (c *call) rename(ctx context.Context, cl *lsp.Client, at protocol.TextDocumentPositionParams) (string, error) {
	if err := cl.SyncOpen(ctx); err != nil {
		return "", err
	}
	params := map[string]any{"textDocument": at.TextDocument, "position": at.Position, "newName": *c.a.NewName}
	var raw json.RawMessage
	if err := cl.Request(ctx, "textDocument/rename", params, &raw); err != nil {
		return "", err
	}
	var edit protocol.WorkspaceEdit
	if len(raw) == 0 || string(raw) == "null" {
		return "Rename returned no edits", nil
	}
	if err := json.Unmarshal(raw, &edit); err != nil {
		return "", err
	}
	if len(edits.Sequence(edit)) == 0 {
		return "Rename returned no edits", nil
	}
	if c.a.Apply != nil && !*c.a.Apply {
		return "Rename preview:\n" + indent(edits.Preview(edit, c.t.env.DisplayPath), "  "), nil
	}
	res, err := c.apply(ctx, cl, edit)
	if err != nil {
		return "", err
	}
	return "Applied rename:\n" + indent(strings.Join(res.Summary(c.t.env.DisplayPath), "\n"), "  "), nil
}

// indent puts prefix before every line of text.
func indent(text, prefix string) string {
	if text == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(text, "\n", "\n"+prefix)
}
