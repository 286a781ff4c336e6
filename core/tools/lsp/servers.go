package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// primaries are the servers that are not linters: the ones asked to
// navigate, reload, describe themselves or answer raw requests.
func (c *call) primaries() []*lsp.Server {
	var out []*lsp.Server
	for _, s := range c.t.mgr.Servers().List {
		if !s.IsLinter {
			out = append(out, s)
		}
	}
	return out
}

// status lists the servers of the project (configured and found, whether
// running or not) and, on one line, those whose program is missing.
func (c *call) status() *tool.Result {
	servers := c.t.mgr.Servers()
	var names []string
	for _, s := range servers.List {
		names = append(names, s.Name)
	}
	text := "No language servers configured for this project"
	if len(names) > 0 {
		text = "Active language servers: " + strings.Join(names, ", ")
	}
	if len(servers.Missing) > 0 {
		var missing []string
		for _, m := range servers.Missing {
			missing = append(missing, m.Name)
		}
		text += "\nKnown servers not installed here (diagnostics of one of their files gives the install command): " + strings.Join(missing, ", ")
	}
	// Beyond omp: whether each running server is shared with other gopi
	// processes (core/lsp/share), or why not.
	var sharing []string
	for _, cl := range c.t.mgr.Running() {
		if note, _ := cl.Sharing(); note != "" {
			sharing = append(sharing, cl.Name()+": "+note)
		}
	}
	slices.Sort(sharing)
	for _, s := range sharing {
		text += "\n" + s
	}
	return c.ok("", text)
}

// capabilities dumps what each server (of the file, or all) said it
// supports in initialize, starting them as needed.
func (c *call) capabilities(ctx context.Context) *tool.Result {
	list := c.primaries()
	if c.file != "" && c.file != "*" {
		abs := c.t.env.Resolve(c.file)
		list = nil
		for _, s := range c.t.mgr.Servers().ForFile(abs) {
			if !s.IsLinter {
				list = append(list, s)
			}
		}
		if len(list) == 0 {
			return c.noServer(abs, "No language server found for this file")
		}
	}
	if len(list) == 0 {
		return c.fail("", "No language servers configured")
	}
	var sections, answered []string
	for _, s := range list {
		if ctx.Err() != nil {
			break
		}
		cl, err := c.client(ctx, s)
		if err != nil {
			sections = append(sections, s.Name+": failed to start ("+err.Error()+")")
			continue
		}
		answered = append(answered, s.Name)
		sections = append(sections, s.Name+":", "  capabilities: "+strings.ReplaceAll(prettyJSON(cl.Capabilities()), "\n", "\n  "))
	}
	return c.ok(strings.Join(answered, ", "), strings.Join(sections, "\n"))
}

// prettyJSON indents raw JSON by two spaces ("null" for nothing).
func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "null"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// request sends any method to one server: the file's primary server, or
// the first configured one. Params: payload verbatim, else the file and
// position, else the file, else {}.
func (c *call) request(ctx context.Context) *tool.Result {
	method := ""
	if c.a.Query != nil {
		method = strings.TrimSpace(*c.a.Query)
	}
	if method == "" {
		return c.fail("", "Error: action=request requires `query` to specify the LSP method name (e.g., 'rust-analyzer/expandMacro')")
	}
	var server *lsp.Server
	abs := ""
	if c.file != "" && c.file != "*" {
		abs = c.t.env.Resolve(c.file)
		if server = c.t.mgr.Servers().PrimaryFor(abs); server == nil {
			return c.noServer(abs, "No language server found for this file")
		}
	} else {
		all := c.primaries()
		if len(all) == 0 {
			return c.fail("", "No language servers configured")
		}
		server = all[0]
	}
	var params any
	switch {
	case c.a.Payload != nil:
		var v json.RawMessage
		if err := json.Unmarshal([]byte(*c.a.Payload), &v); err != nil {
			return c.fail(server.Name, "Error: invalid JSON in payload: "+err.Error())
		}
		params = v
	case abs != "" && c.a.Line != nil:
		pos, err := position(abs, c.line(), c.a.Symbol)
		if err != nil {
			return c.fail(server.Name, "LSP error from "+server.Name+" on "+method+": "+err.Error())
		}
		params = protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: protocol.FileURI(abs)}, Position: pos}
	case abs != "":
		params = map[string]any{"textDocument": protocol.TextDocumentIdentifier{URI: protocol.FileURI(abs)}}
	default:
		params = map[string]any{}
	}
	var result json.RawMessage
	err := func() error {
		cl, err := c.client(ctx, server)
		if err != nil {
			return err
		}
		if abs != "" {
			if _, err := cl.SyncFile(ctx, abs); err != nil {
				return err
			}
		}
		return cl.Request(ctx, method, params, &result)
	}()
	if err != nil {
		return c.fail(server.Name, "LSP error from "+server.Name+" on "+method+": "+err.Error())
	}
	return c.ok(server.Name, server.Name+" ← "+method+":\n"+formatResult(result))
}

// formatResult renders a raw result: a string as itself, nothing as
// "null", anything else as indented JSON.
func formatResult(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "null"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return prettyJSON(raw)
}

// reload reloads one server (the file's) or every one (file "*" or none).
func (c *call) reload(ctx context.Context, list []*lsp.Server) *tool.Result {
	if len(list) == 0 {
		return c.fail("", "No language server found for this action")
	}
	var lines, names []string
	for _, s := range list {
		if ctx.Err() != nil {
			break
		}
		names = append(names, s.Name)
		cl, err := c.client(ctx, s)
		if err != nil {
			lines = append(lines, "Failed to reload "+s.Name+": "+err.Error())
			continue
		}
		lines = append(lines, c.t.mgr.Reload(ctx, cl))
	}
	return c.ok(strings.Join(names, ", "), strings.Join(lines, "\n"))
}
