package agentsession

import (
	"encoding/json"
	"fmt"
	"github.com/gopi-agent/gopi/core/memoryfiles"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/mcp"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/rules"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/skills"
	"github.com/gopi-agent/gopi/core/templates"
)

// Custom message types the session adds.
const (
	CustomTypeSkill = "skill"          // a skill the user invoked with /skill:<name>
	CustomTypeTTSR  = "ttsr-injection" // stream rules put in front of the model
)

// SkillCommandPrefix starts a prompt that invokes a skill: /skill:<name>.
const SkillCommandPrefix = "/skill:"

// Resources is the part of a session that holds what it discovered and
// connected once, in New: the skills, rules and prompt templates, the MCP
// servers, the problems found on the way, and the stream-rule watcher
// (under its own lock). A subagent reuses its parent's.
type Resources struct {
	cfg            *config.Config // skills.enableSkillCommands
	skills         *skills.Set
	rules          *rules.Set
	templates      *templates.Set
	warnings       []error
	mcp            *mcp.Manager // MCP servers; nil with NoMCP
	ownsMCP        bool         // mcp was started by this session (a child shares its parent's)
	secretProblems []string     // unusable secrets.yml entries
	gemini         *geminiParts // Gemini manifest extensions; nil without any search

	ttsrMu      sync.Mutex
	ttsr        *rules.Watcher // nil without stream rules
	keepPartial bool           // ttsr.contextMode keep
	discarding  bool           // the response being stopped is to be dropped, not stored
}

// discoverResources finds the session's skills, rules and templates, as
// the options and settings say.
func (s *Session) discoverResources(injected []string) {
	r := &s.res
	r.cfg = s.cfg
	dirs := s.cfg.Dirs
	dirs.Cwd = s.opts.Cwd
	off := offIn(s.cfg.Settings)
	switch {
	case s.opts.Skills != nil:
		r.skills = s.opts.Skills
	case s.opts.NoSkills:
		r.skills = &skills.Set{}
	default:
		st := off.skills(s.cfg.Settings.Skills())
		st.CustomDirectories = absDirs(st.CustomDirectories, s.cfg.Home, s.opts.Cwd)
		var warns []error
		r.skills, warns = skills.Discover(skills.Options{Roots: off.dirs(append(dirs.SkillDirs(), s.pluginDirs(true)...)), Settings: st, Patterns: s.opts.SkillPatterns})
		r.warnings = append(r.warnings, warns...)
	}
	switch {
	case s.opts.Rules != nil:
		r.rules = s.opts.Rules
	case s.opts.NoRules:
		r.rules = rules.New(nil)
	default:
		var warns []error
		r.rules, warns = rules.Discover(off.dirs(dirs.RuleDirs()))
		r.rules = off.rules(r.rules)
		r.warnings = append(r.warnings, warns...)
	}
	if s.opts.Templates != nil {
		r.templates = s.opts.Templates
	} else {
		var warns []error
		r.templates, warns = templates.Discover(off.dirs(append(dirs.TemplateDirs(), s.pluginDirs(false)...)))
		r.templates = off.templates(r.templates)
		r.warnings = append(r.warnings, warns...)
	}
	st := s.cfg.Settings.TTSR()
	if st.Enabled && len(r.rules.TTSR) > 0 {
		w, warns := rules.NewWatcher(r.rules.TTSR, st)
		r.warnings = append(r.warnings, warns...)
		if w.Len() > 0 {
			w.Restore(injected)
			r.ttsr = w
			r.keepPartial = st.ContextMode == "keep"
		}
	}
	s.discoverGemini()
	s.toolEnv.SetInternalResources(sessionResources{r})
}

// pluginDirs returns the plugins' skill directories (skills) or command
// directories.
func (s *Session) pluginDirs(skills bool) []config.ResourceDir {
	p := s.opts.Plugins
	switch {
	case p == nil:
		return nil
	case skills:
		return p.SkillDirs
	}
	return p.CommandDirs
}

// restoreTTSR resets the stream rules' memory to the rules injected on
// the session's current path (after a switch to another session or
// branch).
func (r *Resources) restoreTTSR(injected []string) {
	r.ttsrMu.Lock()
	defer r.ttsrMu.Unlock()
	if r.ttsr != nil {
		r.ttsr.Reset(injected)
	}
}

// absDirs expands "~/" and makes paths absolute against cwd.
func absDirs(dirs []string, home, cwd string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		d = strings.TrimSpace(d)
		switch {
		case d == "":
			continue
		case d == "~":
			d = home
		case strings.HasPrefix(d, "~/"):
			d = filepath.Join(home, d[2:])
		case !filepath.IsAbs(d):
			d = filepath.Join(cwd, d)
		}
		out = append(out, filepath.Clean(d))
	}
	return out
}

// sessionResources serves skill://, rule:// and memory:// to the read
// tool (and the files behind them to search and bash).
type sessionResources struct{ r *Resources }

// ReadInternal implements tool.InternalResources.
func (sr sessionResources) ReadInternal(url string) (string, string, bool, error) {
	switch {
	case strings.HasPrefix(url, skills.Scheme):
		c, f, err := sr.r.skills.Read(url)
		return c, f, true, err
	case strings.HasPrefix(url, rules.Scheme):
		c, f, err := sr.r.rules.Read(url)
		return c, f, true, err
	case strings.HasPrefix(url, memoryfiles.Scheme):
		c, f, err := sr.memory().Read(url)
		return c, f, true, err
	}
	return "", "", false, nil
}

// InternalFile implements tool.InternalResources.
func (sr sessionResources) InternalFile(url string) (string, bool, error) {
	switch {
	case strings.HasPrefix(url, skills.Scheme):
		f, err := sr.r.skills.Resolve(url)
		return f, true, err
	case strings.HasPrefix(url, rules.Scheme):
		_, f, err := sr.r.rules.Read(url)
		return f, true, err
	case strings.HasPrefix(url, memoryfiles.Scheme):
		f, err := sr.memory().Resolve(url)
		return f, true, err
	}
	return "", false, nil
}

// memory returns the project's memory files (config.MemoryRoots).
func (sr sessionResources) memory() memoryfiles.Files {
	return memoryfiles.Files{Roots: config.MemoryRoots(sr.r.cfg.Dirs)}
}

// promptResources returns what the system prompt lists: skills, the
// always-apply rules and the rulebook.
func (r *Resources) promptResources() (sk []prompt.Skill, always, book []prompt.Rule) {
	for _, x := range r.skills.List() {
		sk = append(sk, prompt.Skill{Name: x.Name, Description: x.Description})
	}
	for _, x := range r.rules.AlwaysApply {
		always = append(always, prompt.Rule{Name: x.Name, Path: x.Path, Content: x.Content})
	}
	for _, x := range r.rules.Rulebook {
		book = append(book, prompt.Rule{Name: x.Name, Path: x.Path, Description: x.Description, Globs: x.Globs})
	}
	return sk, always, book
}

// Skills returns the session's skills in precedence order.
func (r *Resources) Skills() []*skills.Skill { return r.skills.List() }

// Rules returns the session's rules, split into their buckets.
func (r *Resources) Rules() *rules.Set { return r.rules }

// Templates returns the prompt templates and command files /name expands.
func (r *Resources) Templates() []*templates.Template { return r.templates.List() }

// SkillCommandsEnabled reports whether /skill:<name> is offered
// (skills.enableSkillCommands).
func (r *Resources) SkillCommandsEnabled() bool { return r.cfg.Settings.Skills().EnableSkillCommands }

// Warnings returns the problems found while discovering skills, rules and
// templates: files with broken front matter (still loaded), shadowed
// names, skills without a description, bad rule conditions.
func (r *Resources) Warnings() []error { return append([]error(nil), r.warnings...) }

// SecretsProblems lists the secrets.yml entries and patterns that could
// not be used (they are skipped; the rest still apply).
func (r *Resources) SecretsProblems() []string { return append([]string(nil), r.secretProblems...) }

// MCP returns the session's MCP manager, nil when MCP is off (NoMCP).
func (r *Resources) MCP() *mcp.Manager { return r.mcp }

// MCPStatus describes the MCP servers (state, tools, errors) and the
// configuration problems found, for /mcp and RPC's get_mcp_servers.
func (r *Resources) MCPStatus() mcp.Status {
	if r.mcp == nil {
		return mcp.Status{Servers: []mcp.ServerInfo{}}
	}
	return r.mcp.Status()
}

// expandPrompt turns the user's text into the message to send: a
// /skill:<name> invocation becomes the skill's text as a custom message,
// /<template> args the expanded template; anything else is the text as
// typed. Text written by an agent (a subagent's assignment) is never
// expanded.
func (s *Session) expandPrompt(text string, opts PromptOptions) (ai.Message, string, error) {
	if opts.Attribution != "" && opts.Attribution != "user" {
		return nil, text, nil
	}
	trimmed := strings.TrimLeft(text, " \t")
	if rest, ok := strings.CutPrefix(trimmed, SkillCommandPrefix); ok && s.res.SkillCommandsEnabled() {
		name, args, _ := strings.Cut(rest, " ")
		body, sk, err := s.res.skills.CommandMessage(strings.TrimSpace(name), args)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", SkillCommandPrefix+name, err)
		}
		details, _ := json.Marshal(map[string]string{"name": sk.Name, "path": sk.Path, "args": strings.TrimSpace(args)})
		blocks := ai.ContentList{ai.Text(body)}
		for _, im := range opts.Images {
			blocks = append(blocks, im)
		}
		m := &message.Custom{CustomType: CustomTypeSkill, Content: message.Content{Blocks: blocks, Plain: len(opts.Images) == 0}, Display: true, Details: details, Attribution: "user", Timestamp: nowMillis()}
		return m, "Skill: " + sk.Name, nil
	}
	if expanded, _, ok := s.res.templates.Expand(trimmed); ok {
		return nil, expanded, nil
	}
	return nil, text, nil
}

// interrupter feeds the stream-rule watcher with a response's events; it
// is the agent's Options.Interrupter.
func (s *Session) interrupter(ev ai.Event) *agent.StreamInterrupt {
	r := &s.res
	r.ttsrMu.Lock()
	defer r.ttsrMu.Unlock()
	if r.ttsr == nil {
		return nil
	}
	d := rules.Delta{Index: ev.ContentIndex, Text: ev.Delta}
	switch ev.Type {
	case ai.EventStart:
		r.ttsr.BeginResponse()
		return nil
	case ai.EventTextDelta:
		d.Kind = rules.KindText
	case ai.EventThinkingDelta:
		d.Kind = rules.KindThinking
	case ai.EventToolCallDelta:
		d.Kind = rules.KindTool
		if p := ev.Partial; p != nil && ev.ContentIndex < len(p.Content) {
			if tc, ok := p.Content[ev.ContentIndex].(*ai.ToolCall); ok {
				d.Tool = tc.Name
			}
		}
	default:
		return nil
	}
	m := r.ttsr.Observe(d)
	if m == nil {
		return nil
	}
	r.discarding = !r.keepPartial
	return &agent.StreamInterrupt{Messages: []ai.Message{ttsrMessage(m.Rules, true)}, KeepPartial: r.keepPartial}
}

// ttsrTurnEnd adds the rules matched during a turn without interrupting
// it, as a steering message before the next model call.
func (s *Session) ttsrTurnEnd() {
	r := &s.res
	r.ttsrMu.Lock()
	if r.ttsr == nil {
		r.ttsrMu.Unlock()
		return
	}
	later := r.ttsr.EndTurn()
	r.ttsrMu.Unlock()
	if len(later) > 0 {
		s.agent.Steer(ttsrMessage(later, false))
	}
}

// ttsrMessage is the custom message that puts rules in front of the model.
func ttsrMessage(rs []*rules.Rule, interrupted bool) *message.Custom {
	names := make([]string, 0, len(rs))
	for _, r := range rs {
		names = append(names, r.Name)
	}
	details, _ := json.Marshal(ttsrDetails{Rules: names, Interrupted: interrupted})
	return &message.Custom{CustomType: CustomTypeTTSR, Content: message.PlainText(rules.InjectionText(rs, interrupted)), Display: false, Details: details, Attribution: "agent", Timestamp: nowMillis()}
}

// ttsrDetails are the details of a stream-rule message.
type ttsrDetails struct {
	Rules       []string `json:"rules"`
	Interrupted bool     `json:"interrupted"`
}

// TTSRTriggered reports stream rules put in front of the model
// ({type:"ttsr_triggered",rules,interrupted}).
type TTSRTriggered struct {
	Rules       []string `json:"rules"`       // the rules' names
	Interrupted bool     `json:"interrupted"` // the response was stopped for them (else they follow the turn)
}

// EventType implements agent.Event.
func (TTSRTriggered) EventType() string { return "ttsr_triggered" }

// MarshalJSON encodes the ttsr_triggered object.
func (e TTSRTriggered) MarshalJSON() ([]byte, error) {
	type plain TTSRTriggered
	return marshalTyped("ttsr_triggered", plain(e))
}

// onTTSRMessage records a stream-rule message stored in the session: the
// ttsr_injection entry (so a resumed session knows the rules fired) and
// the ttsr_triggered event.
func (s *Session) onTTSRMessage(m *message.Custom) {
	var d ttsrDetails
	if json.Unmarshal(m.Details, &d) != nil || len(d.Rules) == 0 {
		return
	}
	_, _ = s.Store().Record(session.TTSRInjection{InjectedRules: d.Rules})
	s.emit(TTSRTriggered{Rules: d.Rules, Interrupted: d.Interrupted})
}

// storeStopped reports whether a finished assistant message is stored: a
// response a stream rule stopped is not when ttsr.contextMode is discard
// (the model must not see it again when the session is resumed).
func (s *Session) storeStopped(m *ai.AssistantMessage) bool {
	r := &s.res
	r.ttsrMu.Lock()
	defer r.ttsrMu.Unlock()
	if r.discarding && m.StopReason == ai.StopReasonAborted {
		r.discarding = false
		return false
	}
	return true
}
