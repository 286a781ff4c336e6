package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// symbolIcons are the marks of symbol kinds (1 File … 26 TypeParameter)
// in outlines, as the original's default theme draws them.
var symbolIcons = map[int]string{
	1: "📄", 2: "📁", 3: "📁", 4: "📦", 5: "⬢", 6: "⟲", 9: "⟲", 11: "⬢", 12: "⟲", 23: "📁",
}

func symbolIcon(kind int) string {
	if i, ok := symbolIcons[kind]; ok {
		return i
	}
	return "•"
}

// documentSymbol is a hierarchical symbol of textDocument/documentSymbol.
type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail"`
	Kind           int              `json:"kind"`
	Range          protocol.Range   `json:"range"`
	SelectionRange *protocol.Range  `json:"selectionRange"`
	Children       []documentSymbol `json:"children"`
}

// symbolInformation is a flat symbol (documentSymbol's older form, and
// workspace/symbol's).
type symbolInformation struct {
	Name          string `json:"name"`
	Kind          int    `json:"kind"`
	ContainerName string `json:"containerName"`
	Location      struct {
		URI   protocol.DocumentURI `json:"uri"`
		Range protocol.Range       `json:"range"`
	} `json:"location"`
}

// documentSymbols outlines a file.
func (c *call) documentSymbols(ctx context.Context, cl *lsp.Client, abs string) (string, error) {
	var raw []json.RawMessage
	params := map[string]any{"textDocument": protocol.TextDocumentIdentifier{URI: protocol.FileURI(abs)}}
	if err := cl.Request(ctx, "textDocument/documentSymbol", params, &raw); err != nil {
		return "", err
	}
	if len(raw) == 0 {
		return "No symbols found", nil
	}
	var lines []string
	var probe struct {
		SelectionRange json.RawMessage `json:"selectionRange"`
	}
	if json.Unmarshal(raw[0], &probe) == nil && len(probe.SelectionRange) > 0 {
		var syms []documentSymbol
		for _, r := range raw {
			var s documentSymbol
			if json.Unmarshal(r, &s) == nil {
				syms = append(syms, s)
			}
		}
		lines = outline(syms, 0, lines)
	} else {
		for _, r := range raw {
			var s symbolInformation
			if json.Unmarshal(r, &s) == nil {
				lines = append(lines, fmt.Sprintf("%s %s @ line %d", symbolIcon(s.Kind), s.Name, s.Location.Range.Start.Line+1))
			}
		}
	}
	return "Symbols in " + c.t.env.DisplayPath(abs) + ":\n" + strings.Join(lines, "\n"), nil
}

// outline renders symbols and their children, two spaces per level.
func outline(syms []documentSymbol, depth int, lines []string) []string {
	for _, s := range syms {
		detail := ""
		if s.Detail != "" {
			detail = " " + s.Detail
		}
		lines = append(lines, fmt.Sprintf("%s%s %s%s @ line %d", strings.Repeat("  ", depth), symbolIcon(s.Kind), s.Name, detail, s.Range.Start.Line+1))
		lines = outline(s.Children, depth+1, lines)
	}
	return lines
}

// workspaceSymbols searches every server's workspace for query, keeps the
// symbols whose name, container or path contains it (ignoring case),
// drops duplicates and shows the first workspaceSymbolLimit.
func (c *call) workspaceSymbols(ctx context.Context) *tool.Result {
	query := ""
	if c.a.Query != nil {
		query = strings.TrimSpace(*c.a.Query)
	}
	if query == "" {
		return c.fail("", "Error: query parameter required for workspace symbol search")
	}
	servers := c.primaries()
	if len(servers) == 0 {
		return c.fail("", "No language server found for this action")
	}
	var found []symbolInformation
	var answered []string
	for _, s := range servers {
		if ctx.Err() != nil {
			break
		}
		cl, err := c.client(ctx, s)
		if err != nil {
			continue
		}
		var syms []symbolInformation
		if cl.Request(ctx, "workspace/symbol", map[string]string{"query": query}, &syms) != nil || len(syms) == 0 {
			continue
		}
		answered = append(answered, s.Name)
		found = append(found, filterSymbols(syms, query)...)
	}
	found = dedupeSymbols(found)
	if len(found) == 0 {
		return c.ok(strings.Join(answered, ", "), fmt.Sprintf("No symbols matching %q", query))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Found %d symbol(s) matching %q:", len(found), query)
	for _, s := range found[:min(len(found), workspaceSymbolLimit)] {
		container := ""
		if s.ContainerName != "" {
			container = " (" + s.ContainerName + ")"
		}
		loc := protocol.Location{URI: s.Location.URI, Range: s.Location.Range}
		fmt.Fprintf(&b, "\n  %s %s%s @ %s", symbolIcon(s.Kind), s.Name, container, c.location(loc))
	}
	if more := len(found) - workspaceSymbolLimit; more > 0 {
		fmt.Fprintf(&b, "\n... %d additional symbol(s) omitted", more)
	}
	return c.ok(strings.Join(answered, ", "), b.String())
}

// filterSymbols keeps the symbols whose name, container or file path
// contains query, ignoring case (servers match fuzzily).
func filterSymbols(syms []symbolInformation, query string) []symbolInformation {
	needle := strings.ToLower(query)
	var out []symbolInformation
	for _, s := range syms {
		p, _ := s.Location.URI.Path()
		for _, f := range []string{s.Name, s.ContainerName, p} {
			if strings.Contains(strings.ToLower(f), needle) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// dedupeSymbols drops symbols equal in name, container, kind and start.
func dedupeSymbols(syms []symbolInformation) []symbolInformation {
	type key struct {
		name, container string
		kind            int
		uri             protocol.DocumentURI
		start           protocol.Position
	}
	seen := map[key]bool{}
	var out []symbolInformation
	for _, s := range syms {
		k := key{s.Name, s.ContainerName, s.Kind, s.Location.URI, s.Location.Range.Start}
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}
