package registry

import (
	"context"
	"errors"
	"time"

	"github.com/gopi-agent/gopi/core/dap"
	"github.com/gopi-agent/gopi/core/hindsight"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/share"
	"github.com/gopi-agent/gopi/core/pidocs"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/bash"
	"github.com/gopi-agent/gopi/core/tools/browser"
	"github.com/gopi-agent/gopi/core/tools/checkpoint"
	"github.com/gopi-agent/gopi/core/tools/debug"
	"github.com/gopi-agent/gopi/core/tools/github"
	"github.com/gopi-agent/gopi/core/tools/inspectimage"
	"github.com/gopi-agent/gopi/core/tools/irc"
	"github.com/gopi-agent/gopi/core/tools/job"
	lsptool "github.com/gopi-agent/gopi/core/tools/lsp"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/core/tools/recipe"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/core/tools/todo"
)

// Services are what the built-in tools of one session share besides the
// Env: the long-lived state and processes a tool may use. The session
// builds them once (NewServices), hands them to every tool factory (each
// tool takes the services it needs in its constructor) and closes them
// when it ends (Close, in the order written there). Tools built again
// during the session (a new UI, a new active set) get the same services.
//
// A service added later (LSP clients, Jupyter kernels, a browser) is a
// field here, built in NewServices or on first use, and closed in Close at
// its place in the order.
type Services struct {
	Caches  *tool.Caches   // engine caches: scan, file content, parse trees (env.Caches; closed by their owner, not here)
	Jobs    *job.Manager   // background jobs: async and auto-backgrounded bash commands, async tasks
	Shell   *bash.Shell    // the persistent shell of bash and the user's "!" commands
	Pending *resolve.Queue // previews (ast_edit, extensions) waiting for resolve
	Todos   *todo.State    // the plan todo_write keeps
	Pages   *read.Pages    // web pages read, for paging with line selectors
	TaskIDs *task.IDs      // subagent ids when the session has no artifacts directory
	// IRC is the directory of the session tree's live agents (the
	// top-level session's, shared with its subagents) and AgentID this
	// session's id in it; the irc tool needs both.
	IRC     *irc.Registry
	AgentID string
	Debug   *dap.Manager // the debug tool's session (one debug adapter and its program at a time)
	// Browser is the browser tool's Chromium and named tabs; Chromium
	// starts on the first open. A subagent shares its parent's.
	Browser     *browser.Manager
	ownsBrowser bool // Browser was built here (not shared), so Close closes it
	// WriteChecks owns the language server diagnostics fetches that
	// follow the file tools' writes (env.WriteChecks); the session sets
	// where their late results go (SetDeliver).
	WriteChecks *tool.WriteChecks
	// LSP are the language servers of the session and its subagents
	// (started on first use); nil when they are off (lsp.enabled false,
	// --no-lsp).
	LSP     *lsp.Manager
	ownsLSP bool // LSP was built here (not shared by a parent), so Close stops it
	// Subagents starts child sessions for the task tool; nil (no session
	// to run them in) leaves the tool out. The session sets it to itself
	// before it builds its tools.
	Subagents task.Host
	// Checkpoint is the checkpoint and rewind tools' state; the session
	// anchors it and applies its rewind at the ends of turns. Memory only.
	Checkpoint *checkpoint.State
	// CallThrough runs a tool call made from inside another tool (eval's
	// JavaScript tool.<name>) through the session's tool_call and
	// tool_result hooks, the permission gate among them, as the model's
	// calls are; the session sets it. nil (no session: gopi tool, tests):
	// run is called directly.
	CallThrough func(ctx context.Context, name string, t tool.Tool, args tool.Args, run func() (*tool.Result, error)) (*tool.Result, error)
	// Vision is the session's models for inspect_image (the session sets
	// it to itself); nil: the tool says no model registry is available.
	Vision inspectimage.Host
	// Recipes finds the project's task runners for the recipe tool, once,
	// when the tool list is first built with recipe.enabled.
	Recipes *recipe.Detector
	// Eval holds the eval tool's runtimes (eval.go): the Python kernel
	// pool (a subagent's is its parent's) and this session's kernel and
	// JavaScript context.
	Eval EvalRuntimes
	// GitHub serves read's issue:// and pr:// URLs through gh (set as
	// env's scheme readers) and owns the background refreshes of their
	// cached views.
	GitHub *github.Reader
	// Memory is the hindsight memory bank of recall, retain and reflect
	// (memory.backend=hindsight); nil without one. SetMemory sets it.
	Memory     *hindsight.Bank
	ownsMemory bool // Memory was made for this session, so Close writes its queue out
}

// NewServices returns the services of the session of env, with env's
// caches and settings (the job manager's limit), and sets env.WriteChecks
// to the services' own. Nothing is started yet: the shell starts with the
// first command, jobs with the first job, diagnostics fetches with the
// first write, a debug adapter with the first launch or attach, a
// language server with the first call that needs it. When language
// servers are on, env.Diagnostics is set to them, for the file tools.
func NewServices(env *tool.Env) *Services {
	env.WriteChecks = tool.NewWriteChecks()
	s := &Services{
		WriteChecks: env.WriteChecks,
		Caches:      env.Caches,
		Jobs:        job.NewManagerFor(env),
		Shell:       bash.NewShell(env),
		Pending:     resolve.NewQueue(),
		Todos:       &todo.State{},
		Pages:       &read.Pages{},
		TaskIDs:     &task.IDs{},
		Debug:       debug.NewManager(env),
		Browser:     browser.NewManager(env.Settings.Browser),
		ownsBrowser: true,
		Checkpoint:  &checkpoint.State{},
		Recipes:     recipe.NewDetector(recipe.Probe{Root: env.Cwd, Environ: env.Settings.Shell.Environ}),
		GitHub:      github.NewReader(env),
	}
	s.Eval = newEvalRuntimes(env, s, nil)
	env.SetSchemeReader(github.IssueScheme, s.GitHub)
	env.SetSchemeReader(github.PRScheme, s.GitHub)
	env.SetSchemeReader(pidocs.Scheme, pidocs.Embedded())
	if cfg := env.Settings.LSPServers; cfg != nil && cfg.Enabled {
		s.LSP, s.ownsLSP = lsp.NewManager(lsp.ManagerOptions{
			Root: env.Cwd, Config: cfg, ApplyEdit: lsptool.ApplyEdit(env),
			Dial: share.Dial(share.Options{Dir: cfg.ShareDir, Env: cfg.Environ}),
		}), true
		if env.Diagnostics == nil { // a caller's own (a test's, an SDK host's) stays
			env.Diagnostics = s.LSP
		}
	}
	return s
}

// ShareLSP makes the services use a parent session's language servers
// (a subagent works in the parent's tree: one server per root serves
// both); the parent stops them, not Close. A nil m turns them off.
func (s *Services) ShareLSP(env *tool.Env, m *lsp.Manager) {
	if s.ownsLSP {
		if env.Diagnostics == tool.Diagnoser(s.LSP) {
			env.Diagnostics = nil
		}
		_ = s.LSP.Close() // nothing was started yet
	}
	s.LSP, s.ownsLSP = m, false
	if env.Diagnostics == nil && m != nil {
		env.Diagnostics = m
	}
}

// SetMemory gives the services a hindsight bank; owns says Close closes
// it (a subagent shares its parent's and does not).
func (s *Services) SetMemory(b *hindsight.Bank, owns bool) {
	s.Memory, s.ownsMemory = b, owns && b != nil
}

// memoryCloseWait bounds how long Close waits for the last memories to be
// written.
const memoryCloseWait = 5 * time.Second

// ShareBrowser makes the services use a parent session's browser and
// tabs (a subagent sees the tabs its parent opened, as in omp); the parent
// closes them, not Close.
func (s *Services) ShareBrowser(m *browser.Manager) {
	if s.ownsBrowser {
		_ = s.Browser.Close() // nothing was started yet
	}
	s.Browser, s.ownsBrowser = m, false
}

// Close ends the services that run something, in this order:
//
//  1. WriteChecks: the diagnostics fetches still running for files the
//     tools wrote are cancelled and waited for, and nothing more is
//     delivered (a delivery would start another model run).
//  2. Jobs: running background jobs are cancelled and waited for (a
//     grace period), and no delivery starts any more. Before the shell,
//     because a job runs in the shell and through the other services,
//     and its delivery would start another model run.
//  3. Shell: the persistent shell and every process the session's
//     commands started (foreground, background, terminals) end, also
//     those of jobs that ignored their cancellation.
//  4. Eval: the session's Python kernel (and everything its cells
//     started) ends, then the kernel pool when this session owns it; its
//     JavaScript context is dropped.
//  5. Debug: the debug session's adapter and the program it debugs end
//     (with everything they started).
//  6. Browser: the browser tool's tabs close and the Chromium it
//     started ends (with every process it started); an attached browser
//     is only disconnected; a subagent leaves its parent's open.
//  7. LSP: the language servers this session started (shutdown, exit,
//     then a kill of each process group), once no tool, job or
//     diagnostics fetch can ask them anything; a subagent leaves its
//     parent's running.
//  8. GitHub: the background refreshes of cached issue:// and pr://
//     views are cancelled and waited for.
//
// The pending actions, the plan, the pages and the ids are memory; the
// caches belong to whoever built them (the session closes its own after
// this). Close returns the first error; the services are not used after.
func (s *Services) Close() error {
	err := errors.Join(s.WriteChecks.Close(), s.Jobs.Close(), s.Shell.Close(), s.Eval.close(), s.Debug.Close())
	if s.ownsBrowser {
		err = errors.Join(err, s.Browser.Close())
	}
	if s.ownsLSP {
		err = errors.Join(err, s.LSP.Close())
	}
	if s.ownsMemory {
		ctx, cancel := context.WithTimeout(context.Background(), memoryCloseWait)
		s.Memory.Close(ctx)
		cancel()
	}
	return errors.Join(err, s.GitHub.Close())
}
