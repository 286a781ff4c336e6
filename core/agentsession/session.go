package agentsession

import (
	"context"
	"errors"
	"fmt"
	"github.com/gopi-agent/gopi/core/hindsight"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/eval/pykernel"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/mcp"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/core/plugins"
	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/rules"
	"github.com/gopi-agent/gopi/core/secrets"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/skills"
	"github.com/gopi-agent/gopi/core/templates"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/browser"
	"github.com/gopi-agent/gopi/core/tools/irc"
	"github.com/gopi-agent/gopi/core/tools/job"
	"github.com/gopi-agent/gopi/core/tools/recipe"
	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	"github.com/gopi-agent/gopi/core/tools/task"
)

// Options configure a Session. Everything is optional: what is left out is
// discovered from the configuration, as omp's createAgentSession does.
type Options struct {
	// Config is the loaded configuration (settings, environment,
	// directories). Nil loads it for Cwd.
	Config *config.Config
	// Cwd is the working directory; "" uses Config's, else the process's.
	Cwd string
	// Models is the model registry. Nil loads it from the agent directory.
	Models *models.Registry

	// Store is the session to continue. Nil creates a new one: in memory
	// when NoSession is set, else a file under the sessions directory.
	Store *session.Manager
	// NoSession keeps a new session in memory (--no-session).
	NoSession bool
	// SessionDir overrides where new session files go (--session-dir).
	SessionDir string

	// Model is the model to use; nil selects one (see the package doc).
	Model *ai.Model
	// Thinking is the reasoning effort; "" keeps the session's or the
	// settings' default.
	Thinking ai.ThinkingLevel
	// APIKey, when set, is used for Model's provider (--api-key).
	APIKey string

	// ToolNames limits the built-in tools to these names (--tools); nil
	// offers all of them, an empty non-nil slice none (--no-tools).
	ToolNames []string
	// ExtraTools are offered after the built-ins (custom and host tools).
	ExtraTools []tool.Tool
	// ExtensionTools are the tools extensions registered, offered after
	// ExtraTools (Tools().SetExtension replaces them).
	ExtensionTools []tool.Tool

	// SystemPrompt replaces the base system prompt; AppendSystemPrompt is
	// added after it. Both are final text (the CLI reads files).
	SystemPrompt       string
	AppendSystemPrompt string

	// GitStatus is a `git status` the caller started early for Cwd
	// (prompt.StartGitStatus with GitStatusTimeout), whose count of
	// changed paths the system prompt reports; nil starts one at the
	// beginning of New.
	GitStatus *prompt.StatusProbe

	// Skills, when set, are the session's skills instead of discovering
	// them (core/skills); NoSkills turns skills off (--no-skills);
	// SkillPatterns keeps only skills whose name matches one of these
	// globs (--skills).
	Skills        *skills.Set
	NoSkills      bool
	SkillPatterns []string
	// Rules, when set, are the session's rules instead of discovering them
	// (core/rules); NoRules turns rules off (--no-rules).
	Rules   *rules.Set
	NoRules bool
	// Templates, when set, are the prompt templates /name expands instead
	// of discovering them (core/templates).
	Templates *templates.Set
	// NoMCP leaves the MCP servers of the configuration (mcp.json files)
	// off (--no-mcp; omp's enableMCP: false).
	NoMCP bool
	// MCPServers are MCP servers to start besides those of the
	// configuration files (an editor's over ACP, an embedder's own); they
	// come first, so one of them hides a file's server of the same name.
	MCPServers []*config.MCPServer
	// Plugins are what the enabled marketplace plugins and --plugin-dir
	// directories contribute (core/plugins): skills and commands after
	// the configured directories, MCP servers after the configured ones,
	// language servers below the configured ones. Nil: none.
	Plugins *plugins.Contributions
	// NoGeminiExtensions skips the Gemini manifest extensions
	// (gemini-extension.json under ~/.gemini/extensions and
	// <cwd>/.gemini/extensions): their servers, context files and
	// excluded tools (--no-extensions).
	NoGeminiExtensions bool

	// Hooks are the agent loop's extension points.
	Hooks []*agent.Hooks
	// Permissions configure the permission gate every tool call passes:
	// which calls need the user's approval and how to ask (an asker, or
	// the UI SetUI gives). The zero value asks about nothing. Subagents
	// share the session's gate.
	Permissions permission.Options
	// NoTitle turns off automatic session titles (also PI_NO_TITLE).
	NoTitle bool
	// CycleModels, when set, are the models ModelState.Cycle (Ctrl+P) goes
	// through, in order (--models); nil cycles every model with a key.
	CycleModels []*ai.Model
	// HTTPClient is used for provider requests; nil means a client with
	// connection timeouts (streams are guarded by core/ai's watchdogs).
	HTTPClient *http.Client
	// Stream replaces the provider call (tests); nil streams through the
	// model registry.
	Stream agent.StreamFunc

	// Caches are the engine caches (scan, file content, parse trees) the
	// session's tools share. nil: the session builds its own from Config
	// (tool.CachesFrom) and closes them when it closes; caches given here
	// belong to the caller, who may share them between sessions (a child
	// session gets its parent's) and closes them after the last one.
	Caches *tool.Caches

	// Diagnostics are the language servers' diagnostics the file tools
	// (edit, write, ast_edit) ask for after a write (tool.Env.Diagnostics):
	// a test's scripted Diagnoser, or the parent's for a subagent. Nil:
	// none.
	Diagnostics tool.Diagnoser

	// position is a child session's place in the task tree (NewChild);
	// nil is a session the user started.
	position *task.Position
	// artifacts replaces the store's artifacts for a child session, which
	// shares its parent's.
	artifacts *artifact.Store
	// sharedMCP is the parent's MCP manager a child session uses (it
	// does not close it).
	sharedMCP *mcp.Manager
	// sharedLSP are the parent's language servers a child session uses
	// (the parent stops them).
	sharedLSP *lsp.Manager
	// sharedRecipes are the parent's task runners, found once for the
	// tree (a child works in the same directory).
	sharedRecipes *recipe.Detector
	// sharedKernels is the parent's Python kernel pool a child session
	// takes its own kernel from.
	sharedKernels *pykernel.Pool
	// sharedBrowser is the parent's browser and tabs a child session
	// uses (the parent closes them).
	sharedBrowser *browser.Manager
	// sharedMemory is the parent's hindsight bank a child session's
	// memory tools use.
	sharedMemory *hindsight.Bank
	// gate is the parent's permission gate a child session uses.
	gate *permission.Gate
	// sharedIRC is the session tree's agent directory a child joins,
	// and parentAgentID the id of the agent that started it.
	sharedIRC     *irc.Registry
	parentAgentID string
}

// Session is a running conversation. Its methods are safe for concurrent
// use.
type Session struct {
	cfg        *config.Config
	reg        *models.Registry
	opts       Options
	client     *http.Client
	toolEnv    *tool.Env
	svc        *registry.Services // what the tools share besides the Env (services.go)
	caches     *tool.Caches       // the tools' engine caches (Options.Caches, or the session's own)
	ownsCaches bool               // caches were built by this session, which closes them
	position   task.Position      // place in the task tree
	ircLeave   func()             // takes the session out of the irc directory (Close)
	irc        ircQueue           // irc exchanges waiting for the end of the run (irc.go)
	agent      *agent.Agent
	promptInfo *prompt.Prompt      // the built system prompt with its environment facts and context files
	secrets    *secrets.Obfuscator // secrets.enabled: hides secrets from providers; nil when off
	res        Resources           // skills, rules, templates, MCP, the stream-rule watcher (resources.go)
	perm       *permission.Gate    // asks the user before the calls that need it; shared with subagents
	shell      *Shell              // the user's own shell commands (shell.go)
	model      *ModelState         // model, thinking level, credentials (model.go)
	tree       *Tree               // moves in the session tree, branches, switches (tree.go)
	compactor  *Compactor          // compaction, pruning, promotion, handoff (compact.go)
	gate       *Turn               // who works on the conversation; closed state (turn.go)
	tools      *Tools              // the offered tools, their environment, UI, todos and jobs (tools.go)
	plan       *PlanMode           // plan mode (planmode.go)
	memAuto    *hindsight.Auto     // the hindsight backend's automatic recall and retain (memory.go); nil when off

	// Set in New, or safe for concurrent use by themselves.
	listeners    agent.Listeners
	unsub        func()
	titleWait    time.Duration  // how long Close waits for a title (titleGrace)
	bg           sync.WaitGroup // background work (titles) the session owns
	deliveryRuns atomic.Int64   // runs started by job deliveries, not yet returned
	bridgeCalls  atomic.Int64   // calls made from inside eval, for their call ids
	bgCtx        context.Context
	bgCancel     context.CancelFunc

	mu        sync.Mutex
	store     *session.Manager
	titleOnce bool
	runLock   *session.RunLock // this process runs the store's session file
	stateJSON stateJSON        // cached encodings for State
	onClose   []func()         // run by Close once the work has stopped (OnClose)
}

// New builds a session: configuration, models, the store, tools, system
// prompt and the agent loop.
func New(ctx context.Context, opts Options) (*Session, error) {
	cfg := opts.Config
	if cfg == nil {
		var err error
		cfg, err = config.Load(config.LoadOptions{Cwd: opts.Cwd})
		if err != nil {
			return nil, err
		}
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd = cfg.Cwd
	}
	// git status takes milliseconds to hundreds of them: let it run while
	// the rest is set up.
	gitProbe := startGitStatus(ctx, opts, cwd)
	reg := opts.Models
	if reg == nil {
		var err error
		mo := models.OptionsFor(cfg)
		// Stored credentials without sign-in flows: a sign-in that
		// expires asks for a new login (launch.Open passes the flows).
		mo.Credentials = auth.New(auth.OptionsFor(cfg, nil))
		reg, err = models.Load(mo)
		if err != nil {
			return nil, err
		}
	}
	s := &Session{cfg: cfg, reg: reg, opts: opts, titleWait: titleGrace}
	s.opts.Cwd = cwd
	s.client = opts.HTTPClient
	if s.client == nil {
		s.client = defaultHTTPClient(cfg)
	}
	perm, err := newGate(opts)
	if err != nil {
		return nil, err
	}
	s.perm = perm
	s.bgCtx, s.bgCancel = context.WithCancel(context.Background())
	s.loadSecrets()

	store := opts.Store
	if store == nil {
		var err error
		store, err = s.newStore("")
		if err != nil {
			return nil, err
		}
	}
	if err := s.lockStore(store); err != nil {
		if opts.Store == nil {
			store.Close()
		}
		return nil, err
	}
	s.store = store
	// From here on a failure gives back what New took: the run lock, the
	// store it created and the background context.
	built := false
	defer func() {
		if built {
			return
		}
		s.bgCancel()
		s.closeMCP()
		s.closeTools()
		s.mu.Lock()
		lock := s.runLock
		s.runLock = nil
		s.mu.Unlock()
		lock.Release()
		if opts.Store == nil {
			store.Close()
		}
	}()
	sctx := store.BuildContext()
	model, thinking, fallback, err := s.selectModel(sctx)
	if err != nil {
		return nil, err
	}
	if opts.APIKey != "" && model != nil {
		reg.SetAPIKey(model.Provider, opts.APIKey)
	}

	s.position = task.TopLevel
	if opts.position != nil {
		s.position = *opts.position
	}
	s.caches, s.ownsCaches = opts.Caches, opts.Caches == nil
	if s.ownsCaches {
		s.caches = tool.CachesFrom(cfg)
	}
	s.toolEnv = s.newToolEnv(store)
	s.svc = registry.NewServices(s.toolEnv)
	if opts.sharedLSP != nil {
		s.svc.ShareLSP(s.toolEnv, opts.sharedLSP)
	}
	if opts.sharedRecipes != nil {
		s.svc.Recipes = opts.sharedRecipes
	}
	if opts.sharedKernels != nil {
		s.svc.ShareKernels(s.toolEnv, opts.sharedKernels)
	}
	if opts.sharedBrowser != nil {
		s.svc.ShareBrowser(opts.sharedBrowser)
	}
	s.startMemory(opts.sharedMemory, store.SessionID())
	s.startMemoryAuto()
	s.svc.Subagents = taskHost{s}
	s.joinIRC(opts.sharedIRC)
	s.svc.Vision = visionHost{s}
	s.svc.WriteChecks.SetDeliver(s.deliverNotice)
	s.restoreTodos(store)
	s.discoverResources(sctx.InjectedTTSRRules)
	s.startMCP(ctx)
	s.tools = &Tools{host: s, env: s.toolEnv, svc: s.svc, perm: s.perm, store: s.Store, names: opts.ToolNames,
		extra: opts.ExtraTools, extension: opts.ExtensionTools, child: opts.position != nil}
	s.tools.disc = newDiscovery(s.toolEnv.Settings.Discovery, opts.ToolNames, s.tools.rebuild, s.recordToolSelection)
	s.tools.disc.restore(sctx.SelectedMCPToolNames)
	tools, err := s.tools.build()
	if err != nil {
		return nil, err
	}
	system, err := s.systemPrompt(tools, gitProbe)
	if err != nil {
		return nil, err
	}
	retry := cfg.Settings.Retry()
	steer, follow, interrupt, err := queueModes(cfg.Settings)
	if err != nil {
		return nil, err
	}
	stream := s.streamFunc()
	s.agent = agent.New(agent.Options{
		Model:          model,
		Thinking:       thinking,
		SystemPrompt:   system,
		Tools:          tools,
		Messages:       sctx.Messages,
		Stream:         stream,
		ConvertToLLM:   message.ToLLM,
		PrepareRequest: s.prepareRequest,
		SessionID:      store.SessionID(),
		SteeringMode:   steer,
		FollowUpMode:   follow,
		InterruptMode:  interrupt,
		Retry:          agent.RetryOptions{Enabled: retry.Enabled, Policy: ai.RetryPolicy{MaxAttempts: retry.MaxRetries, BaseDelay: retry.BaseDelay}},
		Hooks:          s.withGate(s.withPlanGuard(opts.Hooks)),
		Artifacts:      s.toolEnv.Artifacts,
		Interrupter:    s.interrupter,
		RestoreArgs:    s.restoreArgs(),
	})
	s.tools.agent = s.agent
	s.svc.CallThrough = s.callThrough
	s.model = &ModelState{reg: reg, agent: s.agent, store: s.Store, agentDir: cfg.AgentDir, cycle: opts.CycleModels, fallback: fallback, settings: cfg.Settings}
	s.model.restoreTier(sctx.ServiceTier, cfg.Settings.String("serviceTier"))
	if len(sctx.Messages) > 0 || sctx.Models["default"] != "" {
		s.model.recorded.model, s.model.recorded.thinking = sctx.Models["default"], sctx.ThinkingLevel
	}
	s.gate = newTurn(s.agent)
	s.registerIRC(opts.parentAgentID)
	s.plan = &PlanMode{s: s}
	s.compactor = &Compactor{host: s, turn: s.gate, agent: s.agent, model: s.model, cfg: cfg}
	s.tree = &Tree{host: s, turn: s.gate, agent: s.agent, model: s.model, cfg: cfg, cwd: cwd, sessionDir: opts.SessionDir}
	s.shell = &Shell{agent: s.agent, env: s.toolEnv, shell: s.svc.Shell, store: s.Store, hooks: s.userBashHooks, closed: s.gate.isClosed, bg: &s.bg, bgCtx: s.bgCtx}
	s.unsub = s.agent.Subscribe(s.onAgentEvent)
	s.svc.Pending.OnPush = s.onPreviewQueued
	if job.Enabled(s.toolEnv) {
		s.svc.Jobs.SetDeliver(s.deliverJob)
	}
	built = true
	return s, nil
}

// queueModes reads the queue and interrupt modes from the settings.
func queueModes(st *config.Settings) (agent.QueueMode, agent.QueueMode, agent.InterruptMode, error) {
	steer, err := agent.ParseQueueMode(st.SteeringMode())
	if err != nil {
		return "", "", "", fmt.Errorf("setting steeringMode: %w", err)
	}
	follow, err := agent.ParseQueueMode(st.FollowUpMode())
	if err != nil {
		return "", "", "", fmt.Errorf("setting followUpMode: %w", err)
	}
	interrupt, err := agent.ParseInterruptMode(st.InterruptMode())
	if err != nil {
		return "", "", "", fmt.Errorf("setting interruptMode: %w", err)
	}
	return steer, follow, interrupt, nil
}

// newStore creates a new session store: in memory with NoSession, else a
// file in the project's sessions directory.
func (s *Session) newStore(parent string) (*session.Manager, error) {
	if s.opts.NoSession {
		return session.InMemory(s.opts.Cwd), nil
	}
	o := StoreOptions(s.cfg, s.opts.Cwd, s.opts.SessionDir)
	o.ParentSession = parent
	return session.Create(o)
}

// StoreOptions returns the options for opening or creating session files
// of cfg in cwd: new files go to the project's sessions directory (or
// sessionDir), images to the blob store (omp's is read too), and appends are fsynced at the
// end of every turn rather than one by one (the session runtime flushes at
// turn_end and agent_end: a killed process loses nothing, a power failure
// at most the turn in progress).
func StoreOptions(cfg *config.Config, cwd, sessionDir string) session.Options {
	return session.Options{Cwd: cwd, Dir: Locations(cfg, sessionDir).NewSessionDir(cwd), BlobDir: cfg.BlobDir(), BlobFallback: []string{cfg.OMPBlobDir()}, Sync: session.SyncOnFlush}
}

// Locations returns the session locations for a configuration and an
// optional --session-dir.
func Locations(cfg *config.Config, sessionDir string) session.Locations {
	return session.Locations{
		Roots:      []string{cfg.SessionsDir(), cfg.OMPSessionsDir()},
		Home:       cfg.Home,
		Temp:       os.TempDir(),
		SessionDir: sessionDir,
	}
}

// newToolEnv builds the tools' shared state for a store.
func (s *Session) newToolEnv(store *session.Manager) *tool.Env {
	env := tool.NewEnvFrom(s.cfg)
	env.Cwd = s.opts.Cwd
	env.Artifacts = store.Artifacts()
	if s.opts.artifacts != nil {
		env.Artifacts = s.opts.artifacts
	}
	env.LocalFallback = localFallback(store)
	env.ToolNames = s.offeredToolNames
	env.Caches = s.caches
	env.Diagnostics = s.opts.Diagnostics
	if p := s.opts.Plugins; p != nil && len(p.LSPFiles) > 0 && env.Settings.LSPServers != nil {
		lsp := *env.Settings.LSPServers
		lsp.Files = append(slices.Clone(p.LSPFiles), lsp.Files...)
		env.Settings.LSPServers = &lsp
	}
	if s.reg != nil {
		env.Keys = s.reg
	}
	return env
}

// localFallback is the scratch directory (local://) of a session kept in
// memory: a directory of its own under the system's temporary directory.
func localFallback(store *session.Manager) string {
	id := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, store.SessionID())
	return filepath.Join(os.TempDir(), "gopi-local", id)
}

// removeMemoryScratch removes the scratch directory (local://) of a
// session kept in memory when it ends: no later run can resume such a
// session and find it again. A persisted session's scratch directory
// (in its artifacts directory) is kept with the session file.
func removeMemoryScratch(env *tool.Env) {
	if env.LocalFallback != "" && env.LocalDir() == env.LocalFallback {
		os.RemoveAll(env.LocalFallback)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// streamFunc returns how provider requests are made: Options.Stream, or the
// registry (which adds credentials) with the session's HTTP client.
func (s *Session) streamFunc() agent.StreamFunc {
	if s.opts.Stream != nil {
		return s.hideSecrets(s.opts.Stream)
	}
	return s.hideSecrets(func(ctx context.Context, req *ai.Request) *ai.Stream { return s.reg.Stream(ctx, req, s.client) })
}

// prepareRequest applies per-request settings.
func (s *Session) prepareRequest(req *ai.Request) {
	first, idle := s.cfg.StreamTimeouts()
	req.FirstEventTimeout, req.IdleTimeout = first, idle
	// The agent was built for the first store; after a switch the
	// provider's cache key follows the current one.
	req.SessionID = s.Store().SessionID()
	req.ServiceTier = s.model.ServiceTier()
	s.memoryInstructions(req)
}

// onPreviewQueued forces a one-shot resolve call and reminds the model
// when a tool staged a preview.
func (s *Session) onPreviewQueued(a *resolve.Action) {
	s.agent.ForceToolChoice("resolve", a.Label)
	s.agent.Steer(&message.Custom{CustomType: "resolve-reminder", Content: message.PlainText(resolve.Reminder), Display: false, Attribution: "agent", Timestamp: nowMillis()})
}

// Subscribe registers fn for every event of the session (the agent's and
// the session's own) and returns a function that removes it.
func (s *Session) Subscribe(fn func(agent.Event)) (cancel func()) { return s.listeners.Add(fn) }

// emit delivers an event to the subscribers in subscription order.
func (s *Session) emit(ev agent.Event) { s.listeners.Emit(ev) }

// Agent returns the agent loop (for front ends that need its queues and
// modes).
func (s *Session) Agent() *agent.Agent { return s.agent }

// Store returns the current session store.
func (s *Session) Store() *session.Manager {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store
}

// Config returns the configuration.
func (s *Session) Config() *config.Config { return s.cfg }

// Model returns the part that owns the model and the thinking level.
func (s *Session) Model() *ModelState { return s.model }

// Err returns the session's latched persistence error, if any.
func (s *Session) Err() error { return s.Store().Err() }

// Close aborts any run, waits briefly for background work (a title being
// generated), and closes the session file. It returns the first
// persistence error.
func (s *Session) Close() error {
	if !s.gate.close() {
		return nil
	}
	if s.ircLeave != nil {
		s.ircLeave() // nobody may message a session that is closing
	}
	s.mu.Lock()
	onClose := s.onClose
	s.onClose = nil
	s.mu.Unlock()
	s.Abort()
	// Wait for the prompt or compaction in progress to see the abort and
	// give the turn back; it is kept, nothing may start after Close.
	s.gate.keep()
	_ = s.agent.WaitIdle(context.Background())
	s.shell.Abort()
	s.memoryClose() // before the bank's queue is closed with the tools
	// Background jobs and the shell end before the rest: a job's last
	// delivery cannot start a run any more (the session is closed).
	s.closeTools()
	s.closeMCP()
	s.waitBackground(s.titleWait)
	s.shell.flush()
	removeMemoryScratch(s.toolEnv)
	for _, fn := range onClose {
		fn()
	}
	s.unsub()
	err := s.Store().Close()
	s.mu.Lock()
	lock := s.runLock
	s.runLock = nil
	s.mu.Unlock()
	if rerr := lock.Release(); err == nil {
		err = rerr
	}
	return err
}

var errClosed = errors.New("the session is closed")

// OnClose registers fn to run when the session closes, after its work
// has stopped and before the file is closed (an extension runtime's
// shutdown).
func (s *Session) OnClose(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onClose = append(s.onClose, fn)
}

// Tree returns the part that moves in the session tree and between
// session files.
func (s *Session) Tree() *Tree { return s.tree }

// Compactor returns the part that keeps the context in shape (compaction,
// handoff).
func (s *Session) Compactor() *Compactor { return s.compactor }

// counter returns the compactor's token counter of the current model.
func (s *Session) counter() *compaction.Counter { return s.compactor.counter() }

// Resources returns the part that holds the skills, rules, templates and
// MCP servers the session found.
func (s *Session) Resources() *Resources { return &s.res }

// Turn returns the part that decides who works on the conversation
// (steering, follow-ups, the busy state).
func (s *Session) Turn() *Turn { return s.gate }

// Shell returns the part that runs the user's own shell commands ("!cmd").
func (s *Session) Shell() *Shell { return s.shell }

// lockStore takes the run lock of a stored session, so a second gopi
// cannot continue it at the same time, and makes sure its directory
// exists and is writable before any model is called.
func (s *Session) lockStore(store *session.Manager) error {
	if store.File() == "" {
		return nil
	}
	dir := filepath.Dir(store.File())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create the session directory: %w (make it writable, or choose another with --session-dir, or run with --no-session)", err)
	}
	l, err := session.LockRun(store.File())
	if err != nil {
		if errors.Is(err, session.ErrInUse) {
			return err
		}
		return fmt.Errorf("cannot write in the session directory %s: %w (make it writable, or choose another with --session-dir, or run with --no-session)", dir, err)
	}
	s.mu.Lock()
	s.runLock = l
	s.mu.Unlock()
	return nil
}
