package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// applyEditTimeout bounds one workspace/applyEdit the server asks for.
const applyEditTimeout = 30 * time.Second

// noApplier is the answer to workspace/applyEdit when the client has no
// ApplyEdit function (a manager built without one).
const noApplier = "this gopi client applies no edits a language server sends on its own; use the lsp tool's rename or code_actions instead"

// serverHandler routes what the server sends to its client.
type serverHandler struct{ c *Client }

// Handle answers one message; see Client.handle.
func (h serverHandler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	if !req.Notif && req.Method == "workspace/applyEdit" {
		h.c.applyEdit(conn, req.ID, params)
		return
	}
	result, rerr := h.c.handle(req.Method, req.Notif, params)
	if req.Notif {
		return
	}
	// The answer is written apart from the reader: were the server's
	// input full while it waits for gopi to read its output, writing here
	// would stop both.
	h.c.handlers.Add(1)
	go func() {
		defer h.c.handlers.Done()
		if rerr != nil {
			_ = conn.ReplyWithError(ctx, req.ID, rerr)
		} else {
			_ = conn.Reply(ctx, req.ID, result)
		}
	}()
}

// handle answers what the server sends: notifications (diagnostics,
// progress) and requests (configuration, progress tokens, registrations,
// edits). It runs on the connection's reader; only workspace/applyEdit,
// which writes files, runs apart (see applyEdit).
func (c *Client) handle(method string, notif bool, params json.RawMessage) (any, *jsonrpc2.Error) {
	if notif {
		switch method {
		case "textDocument/publishDiagnostics":
			var p protocol.PublishDiagnosticsParams
			if json.Unmarshal(params, &p) == nil {
				c.diags.publish(p)
			}
		case "$/progress":
			c.load.progress(params)
		}
		return nil, nil
	}
	switch method {
	case "workspace/configuration":
		return c.configuration(params), nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	case "workspace/workspaceFolders":
		root := protocol.FileURI(c.opts.Root)
		return []map[string]any{{"uri": root, "name": filepath.Base(c.opts.Root)}}, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not found: " + method}
}

// configuration answers workspace/configuration: for each item the
// server's settings under its section ("gopls", "python.analysis"), {}
// when there are none.
func (c *Client) configuration(params json.RawMessage) []any {
	var p struct {
		Items []struct {
			Section string `json:"section"`
		} `json:"items"`
	}
	_ = json.Unmarshal(params, &p)
	out := make([]any, len(p.Items))
	for i, it := range p.Items {
		out[i] = settingsSection(c.opts.Server.Settings, it.Section)
	}
	return out
}

// settingsSection finds a dotted section in settings; {} when absent.
func settingsSection(settings map[string]any, section string) any {
	if section == "" {
		if settings == nil {
			return map[string]any{}
		}
		return settings
	}
	if v, ok := settings[section]; ok {
		return v
	}
	var cur any = settings
	for _, part := range strings.Split(section, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return map[string]any{}
		}
		if cur, ok = m[part]; !ok {
			return map[string]any{}
		}
	}
	return cur
}

// applyEdit runs a server's workspace/applyEdit apart from the reader
// (applying may take a while, and may talk to the server) and answers it.
// Close waits for it.
func (c *Client) applyEdit(conn *jsonrpc2.Conn, id jsonrpc2.ID, params json.RawMessage) {
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		ctx, cancel := context.WithTimeout(context.Background(), applyEditTimeout)
		defer cancel()
		var p struct {
			Label string                  `json:"label"`
			Edit  *protocol.WorkspaceEdit `json:"edit"`
		}
		var result protocol.ApplyWorkspaceEditResult
		switch {
		case json.Unmarshal(params, &p) != nil || p.Edit == nil:
			result.FailureReason = "no edit in the request"
		case c.opts.ApplyEdit == nil:
			result.FailureReason = noApplier
		default:
			result = c.opts.ApplyEdit(ctx, c, protocol.ApplyWorkspaceEditParams{Label: p.Label, Edit: *p.Edit})
		}
		_ = conn.Reply(ctx, id, result)
	}()
}
