package tool

import (
	"context"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Diagnoser checks files the tools have just written with the language
// servers that handle them (core/lsp implements it). The file tools
// (edit, write, ast_edit, apply_patch) ask it after each write through
// Env.WriteFile: Known before the write, Fresh after it.
type Diagnoser interface {
	// Known returns the diagnostics the servers last published for abs,
	// without waiting or starting a server: the state before a write.
	Known(abs string) []protocol.Diagnostic
	// Fresh tells the servers that handle abs that its content on disk
	// changed and waits, until ctx ends, for the diagnostics they publish
	// for the new content. servers names the servers that answered; none
	// (and a nil error) when no server handles abs's language or the
	// language servers are turned off. A server that fails is an error
	// naming it; ctx's end returns what has arrived with ctx's error.
	Fresh(ctx context.Context, abs string) (diags []protocol.Diagnostic, servers []string, err error)
}
