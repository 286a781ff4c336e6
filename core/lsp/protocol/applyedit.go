package protocol

// ApplyWorkspaceEditParams are the parameters of workspace/applyEdit, the
// request by which a server asks the client to change the workspace (a
// command it runs, a refactoring it finishes on its own).
type ApplyWorkspaceEditParams struct {
	Label string        `json:"label,omitempty"` // what the change is, for an undo stack or the user
	Edit  WorkspaceEdit `json:"edit"`
}

// ApplyWorkspaceEditResult is the client's answer to workspace/applyEdit.
type ApplyWorkspaceEditResult struct {
	Applied       bool    `json:"applied"`
	FailureReason string  `json:"failureReason,omitempty"` // why nothing was applied, in one line
	FailedChange  *uint32 `json:"failedChange,omitempty"`  // index in documentChanges of the change that failed, when one did
}
