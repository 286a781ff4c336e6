package launch

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/extensions"
	"github.com/gopi-agent/gopi/core/tool"
)

// Extras are what the session's extensions give the modes besides hooks
// and tools: slash commands, key bindings and renderers.
type Extras struct {
	// Commands are the slash commands the extensions registered.
	Commands []*extensions.Command
	// Shortcuts are the key bindings the extensions registered.
	Shortcuts []*extensions.Shortcut
	// Renderers draw custom messages, by customType.
	Renderers map[string]*extensions.Renderer
	// ToolRenderers draw the cards of the extension tools that joined
	// the session, by tool name.
	ToolRenderers map[string]*extensions.ToolRenderer
	// Loaded are the paths of the extensions that loaded, in order.
	Loaded []string
}

// loadExtensions finds and loads the extensions for a session (with
// NoExtensions only the explicit Extensions files): their hooks join opts and their providers the registry;
// attach binds them once the session exists and fills extras, abandon
// stops them when it could not be made. Failures are reported and never
// stop the launch.
func loadExtensions(ctx context.Context, r *Request, cfg *config.Config, opts *agentsession.Options, reg *models.Registry, started *Started) (attach func(*agentsession.Session), abandon func()) {
	none := func(*agentsession.Session) {}
	var pluginExts []string // the plugins' hooks load after the discovered extensions, before -e
	if opts.Plugins != nil && !r.NoExtensions {
		pluginExts = opts.Plugins.Extensions
	}
	if r.NoExtensions && len(r.Extensions) == 0 {
		return none, func() {}
	}
	src := extensions.Sources{
		Cwd:       cfg.Cwd,
		AgentDirs: []string{cfg.AgentDir, cfg.OMPAgentDir},
		Paths:     append(slices.Clone(pluginExts), r.Extensions...),
		Settings:  cfg.Settings.Strings("extensions"),
		Disabled:  cfg.Settings.Strings("disabledExtensions"),
		// An untrusted project's own modules never load (config.ProjectTrust).
		SkipProject: !cfg.ProjectTrusted(),
	}
	if r.NoExtensions {
		// --no-extensions: the -e / --hook files only, as omp's help
		// promises (omp 14.9.9 itself drops them too).
		src.NoDiscovery, src.Settings = true, nil
	}
	entries, errs := extensions.Resolve(src)
	for _, e := range errs {
		r.report("extension: %v", e)
	}
	if !r.NoExtensions {
		// Custom tool modules (tools/ directories) run in the same engine.
		toolEntries, toolErrs := extensions.ResolveCustomTools(extensions.ToolSources{
			Cwd: cfg.Cwd, Home: cfg.Home, AgentDirs: []string{cfg.AgentDir, cfg.OMPAgentDir},
			SkipProject: !cfg.ProjectTrusted(),
		})
		for _, e := range toolErrs {
			r.report("custom tool: %v", e)
		}
		// disabledExtensions turns a tool module off as "tool:<name>".
		entries = append(entries, slices.DeleteFunc(toolEntries, func(e extensions.Entry) bool {
			return slices.Contains(src.Disabled, "tool:"+e.Name)
		})...)
	}
	if len(entries) == 0 {
		return none, func() {}
	}
	var bound atomic.Pointer[agentsession.Session]
	rt := extensions.Load(ctx, entries, extensions.Options{
		Cwd:      cfg.Cwd,
		AgentDir: cfg.AgentDir,
		// The project's own files: ctx.isProjectTrusted().
		ProjectTrusted: cfg.ProjectTrusted(),
		// Bundles kept for the next start: unchanged extensions skip esbuild.
		BundleCacheDir: filepath.Join(cfg.AgentDir, "cache", "extensions"),
		Env:            cfg.Env.Environ(),
		ToolBudget:     cfg.Settings.ExtensionToolTimeout(),
		Written: func(path string) {
			if s := bound.Load(); s != nil {
				s.Tools().Env().Caches.Invalidate(path)
			}
		},
		Log: func(level, msg string) {
			if level == "warn" || level == "error" {
				r.report("extension: %s", msg)
			}
		},
		OnError: func(e extensions.LoadError) {
			// Once the session exists its listeners (RPC frames, the TUI)
			// get the failure as an extension_error event.
			if s := bound.Load(); s != nil {
				s.ReportHookError(e.Path, e.Event, errors.New(e.Err))
				return
			}
			r.report("extension %v", e)
		},
	})
	for _, e := range rt.Errors() {
		r.report("extension %v (skipped)", e)
	}
	for _, w := range rt.Warnings() {
		started.warn(r, "extension "+w.Error())
	}
	opts.Hooks = append(opts.Hooks, rt.Hooks()...)
	for _, p := range rt.Providers() {
		if err := reg.AddProvider(p.Name, p.Config, p.Extension); err != nil {
			r.report("extension provider: %v", err)
		}
	}
	return func(s *agentsession.Session) {
		taken := map[string]bool{}
		for _, t := range s.Tools().Offered() {
			taken[t.Definition().Name] = true
		}
		var tools []tool.Tool
		for _, t := range rt.Tools() {
			name := t.Definition().Name
			if taken[name] {
				r.report("extension: the tool %s is already defined; the extension's is skipped", name)
				continue
			}
			taken[name] = true
			tools = append(tools, t)
		}
		if err := s.Tools().SetExtension(tools); err != nil {
			r.report("extension tools: %v", err)
		}
		unsub := s.Subscribe(func(e agent.Event) { rt.Observe(e) })
		s.OnClose(func() { unsub(); rt.Close() })
		bound.Store(s)
		rt.Bind(extensions.SessionHost(s))
		started.Extras = Extras{Commands: rt.Commands(), Shortcuts: rt.Shortcuts(), Renderers: rt.Renderers(), Loaded: rt.Loaded()}
		// Only the tools that joined the session (a skipped one must not
		// draw the built-in of its name).
		started.Extras.ToolRenderers = map[string]*extensions.ToolRenderer{}
		for name, tr := range rt.ToolRenderers() {
			for _, t := range tools {
				if t.Definition().Name == name {
					started.Extras.ToolRenderers[name] = tr
				}
			}
		}
	}, rt.Close
}
