package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// digits is an index selector of code_actions.
var digits = regexp.MustCompile(`^\d+$`)

// codeActions lists the code actions at the position (query narrows them
// to a kind at the server) or, with apply true and a query, applies the
// one the query selects: by index, or by a case-insensitive part of its
// title.
func (c *call) codeActions(ctx context.Context, cl *lsp.Client, abs string, at protocol.TextDocumentPositionParams) (string, error) {
	query := ""
	if c.a.Query != nil {
		query = strings.TrimSpace(*c.a.Query)
	}
	// apply true without a query (or with an empty one) lists.
	applying := c.a.Apply != nil && *c.a.Apply && c.a.Query != nil && *c.a.Query != ""
	diags, _ := cl.Diagnostics(abs)
	params := protocol.CodeActionParams{
		TextDocument: at.TextDocument,
		Range:        protocol.Range{Start: at.Position, End: at.Position},
		Context:      protocol.CodeActionContext{Diagnostics: diags, TriggerKind: 1},
	}
	if params.Context.Diagnostics == nil {
		params.Context.Diagnostics = []protocol.Diagnostic{}
	}
	if !applying && query != "" {
		params.Context.Only = []string{query}
	}
	var list []protocol.CodeAction
	if err := cl.Request(ctx, "textDocument/codeAction", params, &list); err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "No code actions available", nil
	}
	if !applying {
		return fmt.Sprintf("%d code action(s):\n%s", len(list), actionLines(list)), nil
	}
	if query == "" {
		return "Error: query parameter required when apply=true for code_actions (an index or part of a title from the list)", nil
	}
	chosen := selectAction(list, query)
	if chosen == nil {
		return "No code action matches \"" + query + "\". Available actions:\n" + actionLines(list), nil
	}
	return c.applyAction(ctx, cl, *chosen)
}

// actionLines are the indented "index: [kind] title" lines of list.
func actionLines(list []protocol.CodeAction) string {
	lines := make([]string, len(list))
	for i, a := range list {
		kind := a.Kind
		if kind == "" {
			kind = "action"
		}
		line := fmt.Sprintf("  %d: [%s] %s", i, kind, a.Title)
		if a.IsPreferred {
			line += " (preferred)"
		}
		if a.Disabled != nil {
			line += " (disabled: " + a.Disabled.Reason + ")"
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// selectAction is the first action whose index is query (all digits) or
// whose title holds it, ignoring case; nil when none.
func selectAction(list []protocol.CodeAction, query string) *protocol.CodeAction {
	index := -1
	if digits.MatchString(query) {
		if n, err := strconv.Atoi(query); err == nil {
			index = n
		}
	}
	lower := strings.ToLower(query)
	for i := range list {
		if i == index || strings.Contains(strings.ToLower(list[i].Title), lower) {
			return &list[i]
		}
	}
	return nil
}

// applyAction applies one code action: a bare command is executed; an
// action without an edit is resolved first (a failed resolve is ignored),
// then its edit applied and its command executed.
func (c *call) applyAction(ctx context.Context, cl *lsp.Client, a protocol.CodeAction) (string, error) {
	if !a.Bare && a.Edit == nil {
		var resolved protocol.CodeAction
		if err := cl.Request(ctx, "codeAction/resolve", a.Raw, &resolved); err == nil && resolved.Title != "" {
			a = resolved
		}
	}
	var lines []string
	if !a.Bare && a.Edit != nil {
		res, err := c.apply(ctx, cl, *a.Edit)
		if err != nil {
			return "", err
		}
		lines = append(lines, "  Workspace edit:", indent(strings.Join(res.Summary(c.t.env.DisplayPath), "\n"), "    "))
	}
	if a.Command != nil {
		args := a.Command.Arguments
		if args == nil {
			args = []json.RawMessage{}
		}
		params := map[string]any{"command": a.Command.Command, "arguments": args}
		if err := cl.Request(ctx, "workspace/executeCommand", params, nil); err != nil {
			return "", err
		}
		lines = append(lines, "  Executed command(s):", "    "+a.Command.Command)
	}
	if len(lines) == 0 {
		return "Action \"" + a.Title + "\" has no workspace edit or command to apply", nil
	}
	return "Applied \"" + a.Title + "\":\n" + strings.Join(lines, "\n"), nil
}
