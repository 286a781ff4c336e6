package protocol

import (
	"encoding/json"
	"fmt"
)

// WorkspaceEdit is a set of changes to the workspace a server proposes
// (rename, code actions, workspace/applyEdit). When DocumentChanges is
// present clients use it and ignore Changes, as the protocol says.
type WorkspaceEdit struct {
	Changes         map[DocumentURI][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []DocumentChange           `json:"documentChanges,omitempty"`
}

// DocumentChange is one entry of WorkspaceEdit.DocumentChanges: exactly
// one of its fields is set.
type DocumentChange struct {
	Edit   *TextDocumentEdit
	Create *CreateFile
	Rename *RenameFile
	Delete *DeleteFile
}

// TextDocumentEdit is edits to one document at a version.
type TextDocumentEdit struct {
	TextDocument VersionedTextDocumentIdentifier `json:"textDocument"`
	Edits        []TextEdit                      `json:"edits"` // annotated edits decode as plain ones
}

// FileOptions are the overwrite and ignore flags of create and rename.
type FileOptions struct {
	Overwrite      bool `json:"overwrite,omitempty"`
	IgnoreIfExists bool `json:"ignoreIfExists,omitempty"`
}

// CreateFile creates a file.
type CreateFile struct {
	Kind    string       `json:"kind"` // "create"
	URI     DocumentURI  `json:"uri"`
	Options *FileOptions `json:"options,omitempty"`
}

// RenameFile renames (moves) a file or directory.
type RenameFile struct {
	Kind    string       `json:"kind"` // "rename"
	OldURI  DocumentURI  `json:"oldUri"`
	NewURI  DocumentURI  `json:"newUri"`
	Options *FileOptions `json:"options,omitempty"`
}

// DeleteOptions are the flags of delete.
type DeleteOptions struct {
	Recursive         bool `json:"recursive,omitempty"`
	IgnoreIfNotExists bool `json:"ignoreIfNotExists,omitempty"`
}

// DeleteFile deletes a file or directory.
type DeleteFile struct {
	Kind    string         `json:"kind"` // "delete"
	URI     DocumentURI    `json:"uri"`
	Options *DeleteOptions `json:"options,omitempty"`
}

// UnmarshalJSON reads one entry by its "kind": create, rename, delete, or
// none for a text document edit.
func (d *DocumentChange) UnmarshalJSON(data []byte) error {
	var head struct {
		Kind *string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return err
	}
	*d = DocumentChange{}
	if head.Kind == nil {
		d.Edit = new(TextDocumentEdit)
		return json.Unmarshal(data, d.Edit)
	}
	switch *head.Kind {
	case "create":
		d.Create = new(CreateFile)
		return json.Unmarshal(data, d.Create)
	case "rename":
		d.Rename = new(RenameFile)
		return json.Unmarshal(data, d.Rename)
	case "delete":
		d.Delete = new(DeleteFile)
		return json.Unmarshal(data, d.Delete)
	}
	return fmt.Errorf("unknown document change kind %q", *head.Kind)
}

// MarshalJSON writes the one field that is set.
func (d DocumentChange) MarshalJSON() ([]byte, error) {
	switch {
	case d.Edit != nil:
		return json.Marshal(d.Edit)
	case d.Create != nil:
		return json.Marshal(d.Create)
	case d.Rename != nil:
		return json.Marshal(d.Rename)
	case d.Delete != nil:
		return json.Marshal(d.Delete)
	}
	return nil, fmt.Errorf("empty document change")
}
