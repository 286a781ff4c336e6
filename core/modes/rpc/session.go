package rpc

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// Session is what RPC mode uses of a session; *agentsession.Session
// implements it. The commands reach the session's parts (the turn, the
// model, the tree, the compactor, the user's shell, the resources)
// through their accessors.
type Session interface {
	// Prompt sends a prompt (queued as steer or follow-up during a run).
	Prompt(ctx context.Context, text string, opts agentsession.PromptOptions) error
	// Abort stops the run and any compaction, summary or handoff.
	Abort()
	// Subscribe registers fn for every event and returns its removal.
	Subscribe(fn func(agent.Event)) (cancel func())
	// Close ends the session (its work stops, the file is closed).
	Close() error

	// Messages, LastAssistantText, State and Stats describe the session.
	Messages() []ai.Message
	LastAssistantText() string
	State() agentsession.State
	Stats() agentsession.Stats
	// Store is the current session file.
	Store() *session.Manager
	// Agent is the loop (queue and interrupt modes, thinking level).
	Agent() *agent.Agent

	// ExportHTML writes the session as a web page.
	ExportHTML(outputPath string) (string, error)

	// Tools connects the host's tools, URI schemes, dialogs and todo
	// list.
	Tools() *agentsession.Tools
	Turn() *agentsession.Turn
	Model() *agentsession.ModelState
	Tree() *agentsession.Tree
	Compactor() *agentsession.Compactor
	Shell() *agentsession.Shell
	Resources() *agentsession.Resources
}

// The session runtime is what the CLI hands to Run.
var _ Session = (*agentsession.Session)(nil)
