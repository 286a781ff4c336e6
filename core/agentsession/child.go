package agentsession

import (
	"context"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/core/tools/task"
)

// ChildOptions configure a child session: a subagent the task tool starts.
type ChildOptions struct {
	// SessionFile is where the child's session is stored; its header names
	// the parent's session file as parentSession. "" keeps it in memory.
	SessionFile string
	// ToolNames limits the built-in tools; nil offers every tool.
	ToolNames []string
	// Models are model patterns in order of preference: "pi/<role>" is a
	// model role of the settings (modelRoles; an unassigned pi/smol picks a
	// small model of the parent's provider), "pi/default" the parent's
	// model, anything else a registry query; each may end in
	// ":<thinking level>". The first that resolves to a model with
	// credentials is used, else the parent's model.
	Models []string
	// Thinking is the reasoning effort when the model pattern gives none;
	// "" keeps the parent's.
	Thinking ai.ThinkingLevel
	// AppendSystemPrompt is added after the child's base system prompt.
	AppendSystemPrompt string
	// Position is the child's place in the task tree.
	Position task.Position
	// Artifacts, when set, is the store the child's tools spill to
	// instead of its own (the parent's, so ids stay unique).
	Artifacts *artifact.Store
}

// NewChild creates a child session that shares the parent's configuration,
// model registry (and so its credentials), HTTP client and provider
// stream. It has its own conversation, tools and system prompt, no title
// and no hooks but the parent's permission gate, whose questions name the
// child's task. The caller prompts it and closes it.
func (s *Session) NewChild(ctx context.Context, o ChildOptions) (*Session, error) {
	var store *session.Manager
	if o.SessionFile != "" {
		so := StoreOptions(s.cfg, s.opts.Cwd, s.opts.SessionDir)
		so.Dir = "" // beside the file
		so.ParentSession = s.SessionFile()
		var err error
		store, err = session.Open(o.SessionFile, so)
		if err != nil {
			return nil, fmt.Errorf("create the subagent's session: %w", err)
		}
	} else {
		store = session.InMemory(s.opts.Cwd)
	}
	model, thinking := s.childModel(o.Models, o.Thinking)
	pos := o.Position
	child, err := New(ctx, Options{
		Config:             s.cfg,
		Cwd:                s.opts.Cwd,
		Models:             s.reg,
		Store:              store,
		SessionDir:         s.opts.SessionDir,
		Model:              model,
		Thinking:           thinking,
		APIKey:             s.opts.APIKey,
		ToolNames:          o.ToolNames,
		AppendSystemPrompt: o.AppendSystemPrompt,
		NoTitle:            true,
		HTTPClient:         s.client,
		Stream:             s.opts.Stream,
		position:           &pos,
		artifacts:          o.Artifacts,
		// Subagents search the same tree: they share the parent's caches,
		// and ask the same language servers about the files they write.
		Caches:      s.caches,
		Diagnostics: s.toolEnv.Diagnostics,
		// Subagents work with the parent's skills and rules (found once).
		Skills:    s.res.skills,
		Rules:     s.res.rules,
		Templates: s.res.templates,
		sharedMCP: s.res.mcp,
		// Subagents ask the parent's language servers: one per root.
		sharedLSP: s.svc.LSP,
		// and the parent's task runners, found once.
		sharedRecipes: s.svc.Recipes,
		// Subagents take their own Python kernels from the parent's pool.
		sharedKernels: s.svc.Eval.Pool,
		// Tabs are shared with subagents, as in omp: one Chromium.
		sharedBrowser: s.svc.Browser,
		// and the parent's memory bank and retain queue.
		sharedMemory: s.svc.Memory,
		// and the parent's irc directory, to talk to the other agents.
		sharedIRC:     s.svc.IRC,
		parentAgentID: s.svc.AgentID,
		NoMCP:         s.res.mcp == nil,
		// Subagents leave out what the extensions exclude and read their
		// context files too.
		NoGeminiExtensions: s.opts.NoGeminiExtensions,
		// One permission gate for the whole tree of agents.
		gate: s.perm,
	})
	if err != nil {
		store.Close()
		return nil, err
	}
	return child, nil
}

// childModel resolves a child's model patterns (see ChildOptions.Models)
// and its thinking level: the pattern's, else thinking, else the parent's.
func (s *Session) childModel(patterns []string, thinking ai.ThinkingLevel) (*ai.Model, ai.ThinkingLevel) {
	parent := s.agent.Model()
	level := s.agent.Thinking()
	if thinking != "" {
		level = thinking
	}
	if m, l, has := s.matchModel(patterns); m != nil {
		if has {
			level = l
		}
		return m, models.ClampThinking(m, level)
	}
	if parent == nil {
		return nil, level
	}
	return parent, models.ClampThinking(parent, level)
}

// AgentModel resolves a subagent's model patterns as the task tool does
// for a subagent of this conversation: the first naming a model gopi has
// credentials for (or this session's own model). ok is false when none
// does; the subagent then runs on this session's model, returned (nil
// when there is none).
func (c *Conversation) AgentModel(patterns []string) (m *ai.Model, ok bool) {
	if m, _, _ := c.s.matchModel(patterns); m != nil {
		return m, true
	}
	return c.s.agent.Model(), false
}

// matchModel returns the model of the first usable pattern, with the
// thinking level the pattern names (has: it names one); nil when none is.
func (s *Session) matchModel(patterns []string) (*ai.Model, ai.ThinkingLevel, bool) {
	parent := s.agent.Model()
	for _, p := range patterns {
		q, l, has := models.ParseModelArg(strings.TrimSpace(p))
		var m *ai.Model
		switch role, isRole := strings.CutPrefix(q, "pi/"); {
		case q == config.RoleDefault || isRole && role == config.RoleDefault:
			m = parent
		case isRole:
			ref := s.cfg.Settings.ModelRole(role)
			if ref == "" {
				if role == config.RoleSmol && parent != nil {
					m = s.smolModel()
				}
				break
			}
			rq, rl, rhas := models.ParseModelArg(ref)
			if !has && rhas {
				l, has = rl, true
			}
			m, _ = s.reg.Find(rq)
		default:
			m, _ = s.reg.Find(q)
		}
		if m == nil || !s.reg.HasAuth(m) && m != parent {
			continue
		}
		return m, l, has
	}
	return nil, "", false
}

// taskHost is the session as the task tool's host.
type taskHost struct{ s *Session }

// Config returns the session's configuration.
func (h taskHost) Config() *config.Config { return h.s.cfg }

// SessionFile returns the session's file ("" in memory).
func (h taskHost) SessionFile() string { return h.s.SessionFile() }

// PluginAgentDirs implements task.PluginAgents: the enabled plugins'
// agent directories.
func (h taskHost) PluginAgentDirs() []task.ExtraDir {
	if p := h.s.opts.Plugins; p != nil {
		return p.AgentDirs
	}
	return nil
}

// Position returns the session's place in the task tree.
func (h taskHost) Position() task.Position { return h.s.position }

// ToolNames lists the built-in tools a child can be given.
func (h taskHost) ToolNames() []string { return registry.Names() }

// StartChild creates a child session for the task tool.
func (h taskHost) StartChild(ctx context.Context, spec task.ChildSpec) (task.Child, error) {
	c, err := h.s.NewChild(ctx, ChildOptions{
		SessionFile:        spec.SessionFile,
		ToolNames:          spec.Tools,
		Models:             spec.Models,
		Thinking:           spec.Thinking,
		AppendSystemPrompt: spec.SystemPrompt,
		Position:           spec.Position,
		Artifacts:          spec.Artifacts,
	})
	if err != nil {
		return nil, err
	}
	return child{c}, nil
}

// child is a child session as the task tool drives it.
type child struct{ *Session }

// Prompt runs the child on the assignment.
func (c child) Prompt(ctx context.Context, text string) error {
	return c.Session.Prompt(ctx, text, PromptOptions{Attribution: "agent"})
}

// Model returns the child's model.
func (c child) Model() *ai.Model { return c.agent.Model() }
