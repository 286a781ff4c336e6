package lsptest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// The fake's edit-producing methods (FakeOK mode):
//   - workspace/willRenameFiles answers, for each moved file whose
//     directory holds a refs.txt, an insertion of "→ <new base name>\n" at
//     the start of that refs.txt;
//   - textDocument/codeAction answers two entries: the code action
//     "Insert header" (kind quickfix, no edit until resolved) and the bare
//     command "Run fake" (command "fake.run", the document URI as its
//     argument);
//   - codeAction/resolve gives "Insert header" its edit: "HEADER\n"
//     inserted at the start of the document;
//   - workspace/executeCommand "fake.run" asks the client, through
//     workspace/applyEdit, to insert "RAN\n" at the start of the document
//     named by the argument, and answers once the client replied.

// insertAt0 is an edit inserting text at the start of a document.
func insertAt0(text string) protocol.TextEdit {
	return protocol.TextEdit{Range: protocol.Range{}, NewText: text}
}

// handleEdits answers the edit-producing methods (nil for the
// others).
func handleEdits(method string, params json.RawMessage) any {
	switch method {
	case "workspace/willRenameFiles":
		var p struct {
			Files []struct {
				OldURI protocol.DocumentURI `json:"oldUri"`
				NewURI protocol.DocumentURI `json:"newUri"`
			} `json:"files"`
		}
		_ = json.Unmarshal(params, &p)
		changes := map[protocol.DocumentURI][]protocol.TextEdit{}
		for _, fr := range p.Files {
			oldPath, err1 := fr.OldURI.Path()
			newPath, err2 := fr.NewURI.Path()
			if err1 != nil || err2 != nil {
				continue
			}
			refs := filepath.Join(filepath.Dir(oldPath), "refs.txt")
			if _, err := os.Stat(refs); err == nil {
				u := protocol.FileURI(refs)
				changes[u] = append(changes[u], insertAt0("→ "+filepath.Base(newPath)+"\n"))
			}
		}
		return protocol.WorkspaceEdit{Changes: changes}
	case "textDocument/codeAction":
		var p protocol.CodeActionParams
		_ = json.Unmarshal(params, &p)
		return []map[string]any{
			{"title": "Insert header", "kind": "quickfix", "data": map[string]any{"uri": p.TextDocument.URI}},
			{"title": "Run fake", "command": "fake.run", "arguments": []any{p.TextDocument.URI}},
		}
	case "codeAction/resolve":
		var p struct {
			Title string `json:"title"`
			Kind  string `json:"kind"`
			Data  struct {
				URI protocol.DocumentURI `json:"uri"`
			} `json:"data"`
		}
		_ = json.Unmarshal(params, &p)
		edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.Data.URI: {insertAt0("HEADER\n")}}}
		return map[string]any{"title": p.Title, "kind": p.Kind, "edit": edit}
	}
	return nil
}

// runCommand serves workspace/executeCommand "fake.run": it asks the
// client to apply an edit and answers with null once the client replied,
// or with the client's refusal as an error.
func runCommand(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	var p struct {
		Command   string                 `json:"command"`
		Arguments []protocol.DocumentURI `json:"arguments"`
	}
	if req.Params != nil {
		_ = json.Unmarshal(*req.Params, &p)
	}
	if p.Command != "fake.run" || len(p.Arguments) != 1 {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "unknown command " + p.Command})
		return
	}
	u := p.Arguments[0]
	edit := protocol.ApplyWorkspaceEditParams{Label: "fake.run", Edit: protocol.WorkspaceEdit{
		Changes: map[protocol.DocumentURI][]protocol.TextEdit{u: {insertAt0("RAN\n")}}}}
	var reply protocol.ApplyWorkspaceEditResult
	if err := conn.Call(ctx, "workspace/applyEdit", edit, &reply); err != nil {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
		return
	}
	if !reply.Applied {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "client did not apply the edit: " + reply.FailureReason})
		return
	}
	_ = conn.Reply(ctx, req.ID, nil)
}
