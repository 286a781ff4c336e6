package tui

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
)

// Session is what the terminal UI uses of a session;
// *agentsession.Session implements it. The commands (/model, /tree,
// /compact, !cmd, /skill, …) reach the session's parts through their
// accessors.
type Session interface {
	// Prompt sends the editor's text; Abort stops the work (Esc).
	Prompt(ctx context.Context, text string, opts agentsession.PromptOptions) error
	Abort()
	// Subscribe registers fn for every event and returns its removal.
	Subscribe(fn func(agent.Event)) (cancel func())
	// Close ends the session; Err is its latched write failure.
	Close() error
	Err() error

	// The conversation and the session's state for the footer and the
	// commands.
	Messages() []ai.Message
	LastAssistantText() string
	State() agentsession.State
	Stats() agentsession.Stats
	SessionFile() string
	Config() *config.Config
	Agent() *agent.Agent

	// ExportHTML writes the session as a web page (/export).
	ExportHTML(outputPath string) (string, error)

	// Tools connects the dialogs and counts background jobs.
	Tools() *agentsession.Tools

	Model() *agentsession.ModelState
	Tree() *agentsession.Tree
	Compactor() *agentsession.Compactor
	Shell() *agentsession.Shell
	Resources() *agentsession.Resources
	// Plan is plan mode (/plan).
	Plan() *agentsession.PlanMode
}
