// Package lsp is the lsp tool: the model's way to the language servers of
// the session (core/lsp.Manager) for diagnostics, navigation, hover,
// symbols, server status and raw requests.
//
// Every call runs under a timeout the model may set (5 to 60 seconds,
// default 20); a request the server does not answer in time says which
// method timed out and which server did not answer. A problem with the
// call itself (a missing argument, no server for the file, a server that
// failed) is an ordinary answer with details.success false, as the
// original does; only an abort ends the call as an error.
//
// The actions that change files (rename, rename_file, code_actions, and
// a server's own workspace/applyEdit through ApplyEdit) apply the
// servers' WorkspaceEdits with core/lsp/edits: all or nothing, inside the
// workspace root, refused when a file changed since the server computed
// the edit, written through the session's one write path.
package lsp

import (
	"context"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/tool"
)

// Timeout clamp of a call, in seconds.
const (
	DefaultTimeout = 20
	MinTimeout     = 5
	MaxTimeout     = 60
)

// Actions, in the order of the schema's enum.
var actions = []any{
	"diagnostics", "definition", "references", "hover", "symbols", "rename", "rename_file", "code_actions",
	"type_definition", "implementation", "status", "reload", "capabilities", "request",
}

const description = `Ask the project's language servers (gopls, typescript-language-server, pyright, rust-analyzer, clangd, …) about code: they understand types, scopes and imports, which text search does not.

Actions:
- diagnostics: errors and warnings of a file, of a glob of files (up to 20, e.g. "src/**/*.ts"), or of the whole project with file "*" (runs the project's own checker: go build, tsc, cargo check or pyright).
- definition, type_definition, implementation: where the symbol at file/line/symbol is defined, its type is defined, or it is implemented; each hit comes as path:line:col with the lines around it.
- references: every use of the symbol (the first 50 with context, the rest as locations).
- hover: the type and documentation of the symbol.
- symbols: the outline of a file, or with file "*" and a query the matching symbols of the whole workspace.
- status: which servers serve this project. capabilities: what each server supports (file narrows to that file's servers).
- reload: reload the file's server, or every server with file "*".
- request: send any LSP method (query) to a server, with payload as its JSON params or params built from file/line/symbol.
- rename: rename the symbol at file/line/symbol to new_name everywhere the server finds it; applied at once, or only previewed with apply false.
- rename_file: move file (a file or a directory) to new_name, letting the servers fix imports and other references; apply false previews.
- code_actions: list the fixes and refactorings the server offers at file/line/symbol (query narrows to a kind, e.g. "source.organizeImports"); with apply true, query picks one to apply by its index in the list or part of its title.
Edits are applied all or nothing, only inside the workspace, and refused when a file changed after the server computed them (ask again).

Positions: line is 1-based; symbol is text on that line whose first character is the position (add #N for its N-th occurrence on the line, e.g. "x#2"). Without symbol, the line's first non-blank character is used.

Prefer this tool over text search to find definitions and uses of a symbol whenever a server handles the file.`

// Tool is the lsp tool of a session.
type Tool struct {
	env *tool.Env
	mgr *lsp.Manager
	// retryDelay is the pause between references retries (a field, so
	// tests could shorten it).
	retryDelay time.Duration
	// beforeApply, when set, runs between a server computing an edit and
	// its application (tests change a file there).
	beforeApply func()
}

// New returns the lsp tool over the session's language servers.
func New(env *tool.Env, mgr *lsp.Manager) tool.Tool {
	return &Tool{env: env, mgr: mgr, retryDelay: referencesRetryDelay}
}

// Available reports whether the tool is offered: language servers are
// turned on (lsp.enabled, and no --no-lsp).
func Available(mgr *lsp.Manager) bool { return mgr != nil && mgr.Enabled() }

// Definition describes the tool; the schema is the original's.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "lsp",
		Label:       "LSP",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"action":   {Type: "string", Enum: actions, Description: "LSP operation"},
			"file":     tool.String("File path or source path for rename_file"),
			"line":     tool.Number("Line number (1-indexed)"),
			"symbol":   tool.String("Symbol/substring to locate on the line"),
			"query":    tool.String("Search query, code-action selector, or LSP method name for action=request"),
			"new_name": tool.String("New name for rename, or destination path for rename_file"),
			"apply":    tool.Boolean("Apply edits (default: true for rename/rename_file)"),
			"timeout":  tool.Number("Request timeout in seconds"),
			"payload":  tool.String("JSON-encoded params for action=request. When omitted, params are auto-built from file/line/symbol."),
		}, "action"),
		Concurrency: tool.Shared,
		// Not read-only: request passes any method (workspace/executeCommand
		// can run a server's commands, gopls' tests for one), and reload
		// stops servers.
		ReadOnly: false,
	}
}

// Args are the tool's arguments.
type Args struct {
	Action  string   `json:"action"`
	File    *string  `json:"file,omitempty"`
	Line    *float64 `json:"line,omitempty"`
	Symbol  *string  `json:"symbol,omitempty"`
	Query   *string  `json:"query,omitempty"`
	NewName *string  `json:"new_name,omitempty"`
	Apply   *bool    `json:"apply,omitempty"`
	Timeout *float64 `json:"timeout,omitempty"`
	Payload *string  `json:"payload,omitempty"`
}

// Details are the structured part of every answer.
type Details struct {
	Action     string `json:"action"`
	Success    bool   `json:"success"`
	ServerName string `json:"serverName,omitempty"` // the servers that answered, comma-separated
	Request    *Args  `json:"request,omitempty"`    // the call's arguments
}

// call is one execution: its arguments and what it noted on the way.
type call struct {
	t    *Tool
	a    Args
	file string // a.File, "" when absent
	// notes are said before the answer (a server started again).
	notes []string
}

// Execute runs one action.
func (t *Tool) Execute(ctx context.Context, raw tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a Args
	if err := raw.Decode(&a); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, clampTimeout(a.Timeout))
	defer cancel()
	c := &call{t: t, a: a}
	if a.File != nil {
		c.file = *a.File
	}
	var res *tool.Result
	switch a.Action {
	case "status":
		res = c.status()
	case "diagnostics":
		res = c.diagnostics(ctx)
	case "capabilities":
		res = c.capabilities(ctx)
	case "request":
		res = c.request(ctx)
	case "rename_file":
		res = c.renameFile(ctx)
	default:
		res = c.fileAction(ctx)
	}
	if err := abortError(ctx); err != nil {
		return nil, err
	}
	if len(c.notes) > 0 && len(res.Content) > 0 {
		res.Content[0] = tool.Text(strings.Join(c.notes, "\n") + "\n" + res.FirstText())
	}
	return res, nil
}

// abortError returns the caller's cancellation (an abort, not a
// timeout), which ends the call as aborted whatever it answered.
func abortError(ctx context.Context) error {
	if err := context.Cause(ctx); err != nil && errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// clampTimeout turns the timeout argument into the call's duration.
func clampTimeout(v *float64) time.Duration {
	s := float64(DefaultTimeout)
	if v != nil && !math.IsNaN(*v) {
		s = *v
	}
	s = min(max(s, MinTimeout), MaxTimeout)
	return time.Duration(s * float64(time.Second))
}

// ok is a successful answer.
func (c *call) ok(server, text string) *tool.Result {
	return tool.TextResult(text, Details{Action: c.a.Action, Success: true, ServerName: server, Request: &c.a})
}

// fail is an answer that reports a problem with the call.
func (c *call) fail(server, text string) *tool.Result {
	return tool.TextResult(text, Details{Action: c.a.Action, Success: false, ServerName: server, Request: &c.a})
}

// client returns the running client of s, noting a restart.
func (c *call) client(ctx context.Context, s *lsp.Server) (*lsp.Client, error) {
	cl, note, err := c.t.mgr.Client(ctx, s)
	if note != "" {
		c.notes = append(c.notes, note)
	}
	return cl, err
}

// noServer is the answer for a file no running server handles: the
// install command when a known server would.
func (c *call) noServer(abs, text string) *tool.Result {
	if m := c.t.mgr.Servers().MissingFor(abs); m != nil {
		return c.fail("", text+": "+m.InstallHint())
	}
	return c.fail("", text)
}
