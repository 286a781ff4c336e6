package tui

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/message"
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

	// ExportHTML writes the session as a web page (/export, /share).
	ExportHTML(outputPath string) (string, error)
	// Conversation sends a failed last turn again (/retry), asks about
	// the conversation without adding to it (/btw), measures the context
	// and the session's spending (/context, /usage) and gives the
	// conversation as Markdown (/dump).
	Conversation() *agentsession.Conversation
	// SendCustomMessage adds a message of gopi's own to the conversation
	// (a note to the model after /todo).
	SendCustomMessage(ctx context.Context, m *message.Custom, opts agentsession.CustomOptions) error
	// Turn waits for the work to end when the UI goes to the background.
	Turn() *agentsession.Turn

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
