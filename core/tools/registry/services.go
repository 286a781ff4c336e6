package registry

import (
	"errors"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/bash"
	"github.com/gopi-agent/gopi/core/tools/job"
	"github.com/gopi-agent/gopi/core/tools/read"
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
	// LSP are the language servers of the session and its subagents
	// (started on first use); nil when they are off (lsp.enabled false,
	// --no-lsp).
	LSP     *lsp.Manager
	ownsLSP bool // LSP was built here (not shared by a parent), so Close stops it
	// Subagents starts child sessions for the task tool; nil (no session
	// to run them in) leaves the tool out. The session sets it to itself
	// before it builds its tools.
	Subagents task.Host
}

// NewServices returns the services of the session of env, with env's
// caches and settings (the job manager's limit). Nothing is started yet:
// the shell starts with the first command, jobs with the first job, a
// language server with the first call that needs it. When language
// servers are on, env.Diagnostics is set to them, for the file tools.
func NewServices(env *tool.Env) *Services {
	s := &Services{
		Caches:  env.Caches,
		Jobs:    job.NewManagerFor(env),
		Shell:   bash.NewShell(env),
		Pending: resolve.NewQueue(),
		Todos:   &todo.State{},
		Pages:   &read.Pages{},
		TaskIDs: &task.IDs{},
	}
	if cfg := env.Settings.LSP; cfg != nil && cfg.Enabled {
		s.LSP, s.ownsLSP = lsp.NewManager(lsp.ManagerOptions{Root: env.Cwd, Config: cfg}), true
		env.Diagnostics = s.LSP
	}
	return s
}

// ShareLSP makes the services use a parent session's language servers
// (a subagent works in the parent's tree: one server per root serves
// both); the parent stops them, not Close. A nil m turns them off.
func (s *Services) ShareLSP(env *tool.Env, m *lsp.Manager) {
	if s.ownsLSP {
		_ = s.LSP.Close() // nothing was started yet
	}
	s.LSP, s.ownsLSP = m, false
	env.Diagnostics = nil
	if m != nil {
		env.Diagnostics = m
	}
}

// Close ends the services that run something, in this order:
//
//  1. Jobs: running background jobs are cancelled and waited for (a
//     grace period), and no delivery starts any more. First, because a
//     job runs in the shell and through the other services, and its
//     delivery would start another model run.
//  2. Shell: the persistent shell and every process the session's
//     commands started (foreground, background, terminals) end, also
//     those of jobs that ignored their cancellation.
//  3. LSP: the language servers this session started (shutdown, exit,
//     then a kill of each process group), once no tool or job can ask
//     them anything; a subagent leaves its parent's running.
//
// The pending actions, the plan, the pages and the ids are memory; the
// caches belong to whoever built them (the session closes its own after
// this). Close returns the first error; the services are not used after.
func (s *Services) Close() error {
	err := errors.Join(s.Jobs.Close(), s.Shell.Close())
	if s.ownsLSP {
		err = errors.Join(err, s.LSP.Close())
	}
	return err
}
