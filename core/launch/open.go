package launch

import (
	"context"
	"errors"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/plugins"
)

// Started is a session built by Open, with what its modes need besides it.
type Started struct {
	// Session is the session runtime; the caller closes it.
	Session *agentsession.Session
	// Extras are the extensions' commands, key bindings and renderers.
	Extras Extras
	// Warnings are the problems found while the session started that
	// were reported and that the interactive and RPC modes show again,
	// where a line on standard error is easily missed.
	Warnings []string
	// Logins are /login and /logout's side of the credential store the
	// session's models use.
	Logins *auth.Logins
}

// warn reports msg as a warning and keeps it for the modes.
func (st *Started) warn(r *Request, msg string) {
	r.report("warning: %s", msg)
	st.Warnings = append(st.Warnings, msg)
}

// agent.db's store renews a sign-in a provider refused (web search's
// Gemini does, through the registry).
var _ models.RenewingCredentials = (*auth.Store)(nil)

// Open builds the session the request describes on cfg (see LoadConfig):
// the models, the extensions (loaded first: the providers they declare
// can be the model asked for), the stored session, then the runtime.
// adjust, if not nil, changes the options last. Problems that do not stop
// the session are reported through r.Report; a failure is an *Error.
func Open(ctx context.Context, r *Request, cfg *config.Config, adjust func(*agentsession.Options)) (*Started, error) {
	store := auth.New(auth.OptionsFor(cfg, r.Logins))
	mo := models.OptionsFor(cfg)
	mo.Credentials = store
	reg, err := models.Load(mo)
	if err != nil {
		return nil, fail(StageModels, err)
	}
	// Local servers' models arrive in the background; choosing one waits
	// for its probe only.
	reg.Discover(ctx, nil, 0)
	started := &Started{Logins: &auth.Logins{Store: store, Flows: r.Logins, Keys: KeyProviders(reg), Client: r.HTTPClient}}
	var extOpts agentsession.Options
	extOpts.Plugins = loadPlugins(r, cfg, started)
	attach, abandon := loadExtensions(ctx, r, cfg, &extOpts, reg, started)
	opts, err := SessionOptions(r, cfg, reg)
	if err != nil {
		abandon()
		return nil, err
	}
	opts.Hooks = append(opts.Hooks, extOpts.Hooks...)
	opts.Plugins = extOpts.Plugins
	var sessionHooks *plugins.SessionHooks
	if !r.NoExtensions { // plugins' hooks.json commands are extensions too
		env := plugins.HookEnv{Cwd: cfg.Cwd, Environ: cfg.Env.Environ()}
		opts.Hooks = append(opts.Hooks, opts.Plugins.AgentHooks(env)...)
		if sessionHooks = opts.Plugins.SessionHooks(env); sessionHooks != nil {
			opts.Hooks = append(opts.Hooks, sessionHooks.AgentHooks())
		}
	}
	for flag, v := range map[string]string{"--system-prompt": r.SystemPrompt, "--append-system-prompt": r.AppendSystemPrompt} {
		if looksLikeMissingFile(cfg, v) {
			r.report("warning: %s %q names no file; it is used as the text itself", flag, v)
		}
	}
	if adjust != nil {
		adjust(&opts)
	}
	s, err := agentsession.New(ctx, opts)
	if err != nil {
		abandon()
		if opts.Store != nil {
			opts.Store.Close()
		}
		return nil, fail(StageSession, err)
	}
	if msg := s.Model().FallbackMessage(); msg != "" {
		r.report("%s", msg)
	}
	for _, w := range s.Resources().Warnings() {
		if !errors.Is(w, config.ErrShadowed) { // copies in several agents' directories are normal
			r.report("warning: %v", w)
		}
	}
	for _, w := range append(s.Resources().SecretsProblems(), s.Resources().MCPStatus().Problems()...) {
		r.report("warning: %s", w)
	}
	for _, w := range s.Resources().MCPStatus().Warnings() {
		started.warn(r, w)
	}
	attach(s)
	startSessionHooks(ctx, r.Lifetime, sessionHooks, s, cfg)
	started.Session = s
	return started, nil
}

// startSessionHooks runs the plugins' SessionStart hooks and ties Stop
// and SessionEnd to the session's runs and its end, and the hooks'
// Terminate to the end of life (nil: never).
func startSessionHooks(ctx, life context.Context, h *plugins.SessionHooks, s *agentsession.Session, cfg *config.Config) {
	if h == nil {
		return
	}
	release := func() bool { return false }
	if life != nil {
		release = context.AfterFunc(life, h.Terminate)
	}
	h.SetEnv(plugins.HookEnv{Cwd: cfg.Cwd, Environ: cfg.Env.Environ(), Session: func() (string, string) {
		return s.Store().SessionID(), s.SessionFile()
	}})
	source := "startup"
	if len(s.Messages()) > 0 {
		source = "resume"
	}
	h.Start(ctx, source)
	s.Subscribe(func(ev agent.Event) {
		if _, ok := ev.(agent.AgentEnd); ok {
			h.RunEnded(context.Background())
		}
	})
	s.OnClose(func() {
		h.End(context.Background(), "other")
		release()
	})
}
