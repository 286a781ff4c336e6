package edits

import (
	"context"
	"errors"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// HandleApplyEdit answers a server's workspace/applyEdit request: it
// applies params.Edit with Apply and reports whether it did. A refusal or
// a failure answers applied false with the error as failureReason, and
// the index of the change at fault as failedChange when there is one.
// The client installs it as its applyEdit handler with the session's
// Options (EnvOptions); callers that want the Result call Apply.
func HandleApplyEdit(ctx context.Context, params protocol.ApplyWorkspaceEditParams, opts Options) protocol.ApplyWorkspaceEditResult {
	_, err := Apply(ctx, params.Edit, opts)
	if err == nil {
		return protocol.ApplyWorkspaceEditResult{Applied: true}
	}
	res := protocol.ApplyWorkspaceEditResult{FailureReason: err.Error()}
	change := -1
	var re *RefusedError
	var we *WriteError
	switch {
	case errors.As(err, &re):
		change = re.Change
	case errors.As(err, &we):
		change = we.Change
	}
	if change >= 0 && len(params.Edit.DocumentChanges) > 0 {
		c := uint32(change)
		res.FailedChange = &c
	}
	return res
}

// ClientCapabilities are the workspace edit capabilities of LSP 3.17
// (ClientCapabilities.workspace.workspaceEdit) that Apply supports.
type ClientCapabilities struct {
	DocumentChanges    bool     `json:"documentChanges"`
	ResourceOperations []string `json:"resourceOperations"`
	FailureHandling    string   `json:"failureHandling"`
}

// Capabilities is what the client should announce in initialize under
// workspace.workspaceEdit: versioned document changes, the create,
// rename and delete operations, and "transactional" failure handling
// (all or nothing).
func Capabilities() ClientCapabilities {
	return ClientCapabilities{
		DocumentChanges:    true,
		ResourceOperations: []string{"create", "rename", "delete"},
		FailureHandling:    "transactional",
	}
}
