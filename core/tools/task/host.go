package task

import (
	"context"
	"slices"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
)

// Host is the session the task tool belongs to: it knows the configuration
// and starts child sessions. core/agentsession implements it.
type Host interface {
	// Config is the session's configuration (settings, directories and
	// environment).
	Config() *config.Config
	// SessionFile is the session's file; "" for a session kept in memory.
	SessionFile() string
	// Position is the session's place in a tree of tasks.
	Position() Position
	// ToolNames lists the tools a child session can be given.
	ToolNames() []string
	// StartChild creates a child session ready to be prompted. The caller
	// closes it.
	StartChild(ctx context.Context, spec ChildSpec) (Child, error)
}

// PluginAgents is implemented by a Host whose plugins contribute agent
// definitions (their agents/ directories).
type PluginAgents interface {
	PluginAgentDirs() []ExtraDir
}

// Position is where a session stands in a tree of tasks.
type Position struct {
	Depth  int      // 0 for a session the user started; a subagent is one deeper than its parent
	ID     string   // the output id of the task the session runs; "" at the top
	Spawns []string // agent names the session may start; "*" allows any; none: no task tool
}

// MaySpawn reports whether the session may start agent name.
func (p Position) MaySpawn(name string) bool {
	return slices.Contains(p.Spawns, "*") || slices.Contains(p.Spawns, name)
}

// TopLevel is the position of a session the user started: it may start
// any agent.
var TopLevel = Position{Spawns: []string{"*"}}

// ChildSpec says how to build a child session.
type ChildSpec struct {
	// SessionFile is where the child's session is stored, its header
	// naming the parent's session file as parentSession; "" keeps it in
	// memory.
	SessionFile string
	// Tools are the tool names to offer; nil offers every tool.
	Tools []string
	// Models are model patterns in order of preference: "pi/<role>" names
	// a model role of the settings (modelRoles), "pi/default" the parent's
	// model, anything else is looked up in the model registry (with an
	// optional ":<thinking level>"). When none resolves to a model with
	// credentials the child uses the parent's model.
	Models []string
	// Thinking is the reasoning effort when the model pattern sets none;
	// "" keeps the parent's.
	Thinking ai.ThinkingLevel
	// SystemPrompt is appended to the child's base system prompt.
	SystemPrompt string
	// Position is the child's place in the task tree.
	Position Position
	// Artifacts is the store the child's tools spill to and its own tasks
	// keep their outputs in: the parent's, so ids stay unique in the tree.
	Artifacts *artifact.Store
}

// Child is a running child session.
type Child interface {
	// Prompt sends the assignment and runs the child until it is done or
	// ctx ends.
	Prompt(ctx context.Context, text string) error
	// Subscribe registers fn for the child's events.
	Subscribe(fn func(agent.Event)) (cancel func())
	// LastAssistant is the child's last assistant message, nil when none.
	LastAssistant() *ai.AssistantMessage
	// SessionFile is the child's session file; "" in memory.
	SessionFile() string
	// Model is the model the child uses.
	Model() *ai.Model
	// Close ends the child and closes its session file.
	Close() error
}
