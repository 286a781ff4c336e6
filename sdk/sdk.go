// Package sdk embeds gopi in a Go program: the same session runtime the
// gopi command drives, with its tools, session files, models and events.
//
// A minimal embedding discovers everything the way the command does (the
// configuration of the working directory, the model catalog and
// models.yml, credentials from agent.db, auth.json and the environment):
//
//	s, err := sdk.New(ctx, sdk.Options{})
//	if err != nil { … }
//	defer s.Close()
//	s.Subscribe(func(ev sdk.Event) {
//		if u, ok := ev.(sdk.MessageUpdate); ok && u.AssistantMessageEvent.Type == "text_delta" {
//			fmt.Print(u.AssistantMessageEvent.Delta)
//		}
//	})
//	err = s.Prompt(ctx, "Summarise this repository in three bullets.", sdk.PromptOptions{})
//
// Launch starts a session from what the gopi command line would say
// (LaunchOptions: a model by name, Continue, Resume, Fork, SessionDir,
// the tools), through the very path the command takes (core/launch).
// With New, provide what you want to control and leave the rest: Options.Config
// (see LoadConfig) for an isolated configuration, Options.Store for an
// in-memory (InMemory) or resumed (OpenSession, ContinueRecent) session,
// Options.Model for a fixed model, Options.ToolNames to limit the
// built-in tools, Options.ExtraTools for your own tools, Options.Hooks to
// observe or veto tool calls and see provider requests. Skills, rules and
// prompt templates are discovered as for the command; Options.Skills,
// Options.Rules and Options.Templates supply your own sets (see
// core/skills, core/rules, core/templates), Options.NoSkills and
// Options.NoRules turn them off, and Session.Prompt expands
// "/skill:<name>" and "/<template> args".
//
// MCP servers from the mcp.json files start with the session and their
// tools are offered as mcp__<server>__<tool> (Options.NoMCP turns them
// off); Session.MCPStatus describes them, and DiscoverMCPServers reads
// the configuration without starting anything. With the secrets.enabled
// setting, secrets are hidden from providers as with the command.
//
// What a project's own files ask for — its MCP servers, settings that
// weaken a protection, risky .env variables — is left out until the
// project is trusted, as with the command (config.ProjectTrust): by
// PI_TRUST_PROJECT=1 in the environ given to LoadConfig, by the user's
// trustedProjects setting, or by an answer the user gave gopi before.
// Config.ProjectTrust lists what was left out; Config.SetProjectTrust
// trusts the project for your run (call it before New). Extension and
// custom tool modules are never loaded by New itself (Launch loads them
// as the command does, unless LaunchOptions.NoExtensions).
//
// Events are the objects gopi prints in --mode json: marshal one with
// encoding/json to get that line.
package sdk

import (
	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/mcp"
	"github.com/gopi-agent/gopi/core/session"
)

// NavigateOptions refine Session.Navigate (a summary of the branch left,
// its instructions); NavigateResult says what it did.
type (
	NavigateOptions = agentsession.NavigateOptions
	NavigateResult  = agentsession.NavigateResult
)

// BranchResult is what Session.Branch returns: the user message's text
// and whether an extension cancelled the branch.
type BranchResult = agentsession.BranchResult

// HandoffResult is what Session.Handoff returns: the document and the new
// session's file.
type HandoffResult = agentsession.HandoffResult

// TreeQuery selects the rows of Session.Tree; TreeRow is one row.
type (
	TreeQuery  = session.TreeQuery
	TreeRow    = session.TreeRow
	TreeFilter = session.TreeFilter
)

// Tree filters.
const (
	FilterDefault     = session.FilterDefault
	FilterNoTools     = session.FilterNoTools
	FilterUserOnly    = session.FilterUserOnly
	FilterLabeledOnly = session.FilterLabeledOnly
	FilterAll         = session.FilterAll
)

// Errors of the tree, branch and handoff operations (compare with
// errors.Is).
var (
	ErrWorking          = agentsession.ErrWorking          // a run streams: wait or abort first
	ErrNotFound         = session.ErrNotFound              // no such entry
	ErrNothingToHandOff = agentsession.ErrNothingToHandOff // fewer than two messages
	ErrHandoffCancelled = agentsession.ErrHandoffCancelled // the handoff was aborted
	ErrHandoffEmpty     = agentsession.ErrHandoffEmpty     // the model wrote no document
)

// CompactionResult is what Session.Compact returns: the summary, its
// short recap, the first entry kept verbatim, the context size before,
// the files read and changed (Details) and data kept for extensions.
type CompactionResult = compaction.Result

// Options configure New; every field is optional.
type Options = agentsession.Options

// PromptOptions refine Session.Prompt (images, delivery while streaming).
type PromptOptions = agentsession.PromptOptions

// ChildOptions configure Session.NewChild: a child session (a subagent)
// sharing the session's configuration, models and credentials.
type ChildOptions = agentsession.ChildOptions

// State is a snapshot of a session (model, thinking level, streaming,
// session file, queued messages, tools): what RPC's get_state returns.
type State = agentsession.State

// Delivery values for PromptOptions.StreamingBehavior and custom messages.
const (
	DeliverSteer    = agentsession.DeliverSteer
	DeliverFollowUp = agentsession.DeliverFollowUp
	DeliverNextTurn = agentsession.DeliverNextTurn
)

// Hooks are the extension points (context, tool_call, tool_result,
// provider requests and responses, the compaction points
// session_before_compact, session.compacting and session_compact, and
// the session points session_before_tree, session_tree,
// session_before_branch, session_branch, session_before_switch and
// session_switch).
type Hooks = agent.Hooks

// The types a tool_call hook sees and answers with.
type (
	ToolCallInfo     = agent.ToolCallInfo
	ToolCallDecision = agent.ToolCallDecision
)

// Event is one step of a run; the concrete types follow.
type Event = agent.Event

// Event types (see package core/agent for their fields).
type (
	AgentStart          = agent.AgentStart
	AgentEnd            = agent.AgentEnd
	TurnStart           = agent.TurnStart
	TurnEnd             = agent.TurnEnd
	MessageStart        = agent.MessageStart
	MessageUpdate       = agent.MessageUpdate
	MessageEnd          = agent.MessageEnd
	ToolExecutionStart  = agent.ToolExecutionStart
	ToolExecutionUpdate = agent.ToolExecutionUpdate
	ToolExecutionEnd    = agent.ToolExecutionEnd
	AutoRetryStart      = agent.AutoRetryStart
	AutoRetryEnd        = agent.AutoRetryEnd
	AutoCompactionStart = agentsession.AutoCompactionStart
	AutoCompactionEnd   = agentsession.AutoCompactionEnd
)

// LoadConfig loads the configuration for a working directory the way the
// gopi command does. environ is the environment as KEY=VALUE (nil: the
// process's); pass your own for an isolated configuration.
func LoadConfig(cwd string, environ []string) (*config.Config, error) {
	return config.Load(config.LoadOptions{Cwd: cwd, Environ: environ})
}

// LoadModels loads the model registry (catalog, models.yml, credentials:
// agent.db, gopi's then omp's, auth.json, the environment) for a
// configuration. Stored sign-ins are used while valid; refreshing them
// needs the sign-in flows, which the gopi command passes.
func LoadModels(cfg *config.Config) (*models.Registry, error) {
	mo := models.OptionsFor(cfg)
	mo.Credentials = auth.New(auth.OptionsFor(cfg, nil))
	return models.Load(mo)
}

// InMemory returns a session store that is never written to disk.
func InMemory(cwd string) *session.Manager { return session.InMemory(cwd) }

// OpenSession opens a session file (gopi's or omp's) to continue it.
func OpenSession(cfg *config.Config, path string) (*session.Manager, error) {
	return session.Open(path, agentsession.StoreOptions(cfg, cfg.Cwd, ""))
}

// ContinueRecent opens the newest session of the configuration's working
// directory, or creates a new one.
func ContinueRecent(cfg *config.Config) (*session.Manager, error) {
	loc := agentsession.Locations(cfg, "")
	return session.ContinueRecent(loc, cfg.Cwd, agentsession.StoreOptions(cfg, cfg.Cwd, ""))
}

// ListSessions lists the sessions of the configuration's working
// directory, newest first.
func ListSessions(cfg *config.Config) ([]session.Info, error) {
	return session.List(agentsession.Locations(cfg, ""), cfg.Cwd)
}

// MCP servers: their status (Session.MCPStatus) and configuration.
type (
	MCPStatus     = mcp.Status
	MCPServerInfo = mcp.ServerInfo
	MCPServer     = config.MCPServer
	MCPConfig     = config.MCPConfig
)

// DiscoverMCPServers reads the MCP configuration files of a configuration
// (gopi's and omp's mcp.json, the project's mcp.json and .mcp.json) and
// returns the servers a session would start, with the problems found;
// nothing is started.
func DiscoverMCPServers(cfg *config.Config) *MCPConfig { return cfg.MCP() }
