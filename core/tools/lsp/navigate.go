package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// References retry: a project-aware server may answer with nothing but
// the declaration while it still indexes; the call then waits for the
// project load and asks again, this many times, this far apart.
const (
	referencesRetries    = 2
	referencesRetryDelay = 250 * time.Millisecond
)

// locationActions are the actions answered with locations: method and
// the noun of the answer.
var locationActions = map[string]struct{ method, noun string }{
	"definition":      {"textDocument/definition", "definition"},
	"type_definition": {"textDocument/typeDefinition", "type definition"},
	"implementation":  {"textDocument/implementation", "implementation"},
}

// line returns the 1-based line argument (1 when absent).
func (c *call) line() int {
	if c.a.Line == nil {
		return 1
	}
	return int(*c.a.Line)
}

// fileAction runs the actions about one file (and the workspace forms of
// symbols and reload): the file's primary server, the file synchronised,
// the position resolved.
func (c *call) fileAction(ctx context.Context) *tool.Result {
	workspace := c.file == "*"
	if c.file == "" && c.a.Action != "reload" {
		return c.fail("", "Error: file parameter required. Use `*` for workspace scope where supported.")
	}
	abs := ""
	if c.file != "" && !workspace {
		abs = c.t.env.Resolve(c.file)
	}
	if abs == "" && c.a.Action == "symbols" {
		return c.workspaceSymbols(ctx)
	}
	if abs == "" && c.a.Action == "reload" {
		return c.reload(ctx, c.primaries())
	}
	server := c.t.mgr.Servers().PrimaryFor(abs)
	if abs == "" || server == nil {
		return c.noServer(abs, "No language server found for this action")
	}
	if c.a.Action == "rename" && (c.a.NewName == nil || *c.a.NewName == "") {
		return c.fail(server.Name, "Error: new_name parameter required for rename")
	}
	text, err := c.onFile(ctx, server, abs)
	if err != nil {
		return c.fail(server.Name, "LSP error: "+explain(server, err))
	}
	return c.ok(server.Name, text)
}

// explain adds to a timeout which server did not answer and what to do.
func explain(s *lsp.Server, err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the call's timeout ran out while " + s.Name + " was still loading the project; retry with a longer timeout (up to 60 seconds)"
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "LSP request ") && strings.Contains(msg, " timed out after ") {
		msg += " (" + s.Name + " did not answer in time; it may still be loading the project: retry, or reload the server if it stays stuck)"
	}
	return msg
}

// onFile runs a file action at the file's primary server.
func (c *call) onFile(ctx context.Context, server *lsp.Server, abs string) (string, error) {
	cl, err := c.client(ctx, server)
	if err != nil {
		return "", err
	}
	if _, err := cl.SyncFile(ctx, abs); err != nil {
		return "", err
	}
	pos, err := position(abs, c.line(), c.a.Symbol)
	if err != nil {
		return "", err
	}
	at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: protocol.FileURI(abs)}, Position: pos}
	switch c.a.Action {
	case "definition", "type_definition", "implementation", "references", "rename":
		if err := cl.WaitProjectLoaded(ctx); err != nil {
			return "", err
		}
	}
	src := sources{}
	switch c.a.Action {
	case "definition", "type_definition", "implementation":
		la := locationActions[c.a.Action]
		var raw json.RawMessage
		if err := cl.Request(ctx, la.method, at, &raw); err != nil {
			return "", err
		}
		locs := normalizeLocations(raw)
		if len(locs) == 0 {
			return "No " + la.noun + " found", nil
		}
		lines := make([]string, len(locs))
		for i, l := range locs {
			lines[i] = c.locationWithContext(l, src)
		}
		return fmt.Sprintf("Found %d %s(s):\n%s", len(locs), la.noun, strings.Join(lines, "\n")), nil
	case "references":
		return c.references(ctx, cl, at, src)
	case "hover":
		var h struct {
			Contents json.RawMessage `json:"contents"`
		}
		if err := cl.Request(ctx, "textDocument/hover", at, &h); err != nil {
			return "", err
		}
		if text := hoverText(h.Contents); text != "" && string(h.Contents) != "null" {
			return text, nil
		}
		return "No hover information", nil
	case "symbols":
		return c.documentSymbols(ctx, cl, abs)
	case "reload":
		return c.t.mgr.Reload(ctx, cl), nil
	case "rename":
		return c.rename(ctx, cl, at)
	case "code_actions":
		return c.codeActions(ctx, cl, abs, at)
	}
	return "Unknown action: " + c.a.Action, nil
}

// references asks for every use of the symbol, declaration included.
func (c *call) references(ctx context.Context, cl *lsp.Client, at protocol.TextDocumentPositionParams, src sources) (string, error) {
	params := map[string]any{"textDocument": at.TextDocument, "position": at.Position, "context": map[string]bool{"includeDeclaration": true}}
	var locs []protocol.Location
	for attempt := 0; ; attempt++ {
		locs = nil
		if err := cl.Request(ctx, "textDocument/references", params, &locs); err != nil {
			return "", err
		}
		if cl.Server().IsLinter || attempt == referencesRetries || (len(locs) > 0 && !onlyTheDeclaration(locs, at)) {
			break
		}
		if err := cl.WaitProjectLoaded(ctx); err != nil {
			return "", err
		}
		if err := ctxsleep.Sleep(ctx, c.t.retryDelay); err != nil {
			return "", err
		}
	}
	if len(locs) == 0 {
		return "No references found", nil
	}
	var lines []string
	for i, l := range locs {
		if i < referenceContextLimit {
			lines = append(lines, c.locationWithContext(l, src))
			continue
		}
		if i == referenceContextLimit {
			lines = append(lines, fmt.Sprintf("  ... %d additional reference(s) shown without context", len(locs)-referenceContextLimit))
		}
		lines = append(lines, "  "+c.location(l))
	}
	return fmt.Sprintf("Found %d reference(s):\n%s", len(locs), strings.Join(lines, "\n")), nil
}

// onlyTheDeclaration reports whether the one location found is the
// queried position itself.
func onlyTheDeclaration(locs []protocol.Location, at protocol.TextDocumentPositionParams) bool {
	if len(locs) != 1 || locs[0].URI != at.TextDocument.URI {
		return false
	}
	r, p := locs[0].Range, at.Position
	return !before(p, r.Start) && !before(r.End, p)
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// normalizeLocations reads a definition-like result: a Location, a
// LocationLink, or a list of either (a link becomes its target's
// selection range, else its target range).
func normalizeLocations(raw json.RawMessage) []protocol.Location {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		if len(raw) == 0 || string(raw) == "null" {
			return nil
		}
		list = []json.RawMessage{raw}
	}
	var out []protocol.Location
	for _, item := range list {
		var probe struct {
			URI       protocol.DocumentURI `json:"uri"`
			TargetURI protocol.DocumentURI `json:"targetUri"`
		}
		if json.Unmarshal(item, &probe) != nil {
			continue
		}
		switch {
		case probe.URI != "":
			var l protocol.Location
			if json.Unmarshal(item, &l) == nil {
				out = append(out, l)
			}
		case probe.TargetURI != "":
			var l protocol.LocationLink
			if json.Unmarshal(item, &l) == nil {
				r := l.TargetRange
				if l.TargetSelectionRange != nil {
					r = *l.TargetSelectionRange
				}
				out = append(out, protocol.Location{URI: l.TargetURI, Range: r})
			}
		}
	}
	return out
}

// hoverText flattens hover contents: a string, MarkupContent or
// MarkedString ({language, value}) gives its text, a list its items'
// texts separated by blank lines.
func hoverText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, len(list))
		for i, item := range list {
			parts[i] = hoverText(item)
		}
		return strings.Join(parts, "\n\n")
	}
	var v struct {
		Value *string `json:"value"`
	}
	if json.Unmarshal(raw, &v) == nil && v.Value != nil {
		return *v.Value
	}
	return string(raw)
}
