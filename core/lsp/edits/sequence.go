package edits

import (
	"maps"
	"slices"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Sequence is edit's changes as the one ordered list Apply works
// through: its DocumentChanges when it has any (its Changes are then
// ignored, as the protocol says), else its Changes in path order as
// unversioned text document edits.
//
// Lists of several edits can be joined and given to Apply as one
// WorkspaceEdit{DocumentChanges: …}, to apply them all or none: the
// lsp tool's rename_file joins the edits the servers returned for
// workspace/willRenameFiles and the move itself (a RenameFile change),
// so the move gets the same checks and is undone with the rest. Each
// change applies to the workspace the ones before it leave, so two
// servers' edits of one file (each computed on the original) must not be
// joined.
func Sequence(edit protocol.WorkspaceEdit) []protocol.DocumentChange {
	if len(edit.DocumentChanges) > 0 {
		return edit.DocumentChanges
	}
	out := make([]protocol.DocumentChange, 0, len(edit.Changes))
	for _, u := range slices.Sorted(maps.Keys(edit.Changes)) {
		out = append(out, protocol.DocumentChange{Edit: &protocol.TextDocumentEdit{
			TextDocument: protocol.VersionedTextDocumentIdentifier{URI: u},
			Edits:        edit.Changes[u],
		}})
	}
	return out
}
