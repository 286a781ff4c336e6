package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/extensions"
	"github.com/gopi-agent/gopi/core/tool"
)

// loadExtensions finds and loads the extensions for a session (unless
// --no-extensions): their hooks join opts; attach binds them once the
// session exists, abandon stops them when it could not be made. Failures
// are reported on stderr and never stop gopi.
func (f *agentFlags) loadExtensions(ctx context.Context, env *cliEnv, cfg *config.Config, opts *agentsession.Options, reg *models.Registry) (attach func(*agentsession.Session), abandon func()) {
	none := func(*agentsession.Session) {}
	if f.noExtensions {
		return none, func() {}
	}
	entries, errs := extensions.Resolve(extensions.Sources{
		Cwd:       cfg.Cwd,
		AgentDirs: []string{cfg.AgentDir, cfg.OMPAgentDir},
		Paths:     f.hooks,
		Settings:  cfg.Settings.Strings("extensions"),
		Disabled:  cfg.Settings.Strings("disabledExtensions"),
		// An untrusted project's own modules never load (config.ProjectTrust).
		SkipProject: !cfg.ProjectTrusted(),
	})
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "gopi: extension: %v\n", e)
	}
	// Custom tool modules (tools/ directories) run in the same engine.
	toolEntries, toolErrs := extensions.ResolveCustomTools(extensions.ToolSources{
		Cwd: cfg.Cwd, Home: cfg.Home, AgentDirs: []string{cfg.AgentDir, cfg.OMPAgentDir},
		SkipProject: !cfg.ProjectTrusted(),
	})
	for _, e := range toolErrs {
		fmt.Fprintf(env.stderr, "gopi: custom tool: %v\n", e)
	}
	entries = append(entries, toolEntries...)
	if len(entries) == 0 {
		return none, func() {}
	}
	var bound atomic.Pointer[agentsession.Session]
	rt := extensions.Load(ctx, entries, extensions.Options{
		Cwd:        cfg.Cwd,
		ToolBudget: cfg.Settings.ExtensionToolTimeout(),
		Log: func(level, msg string) {
			if level == "warn" || level == "error" {
				fmt.Fprintf(env.stderr, "gopi: extension: %s\n", msg)
			}
		},
		OnError: func(e extensions.LoadError) {
			// Once the session exists its listeners (RPC frames, the TUI)
			// get the failure as an extension_error event.
			if s := bound.Load(); s != nil {
				s.ReportHookError(e.Path, e.Event, errors.New(e.Err))
				return
			}
			fmt.Fprintf(env.stderr, "gopi: extension %v\n", e)
		},
	})
	for _, e := range rt.Errors() {
		fmt.Fprintf(env.stderr, "gopi: extension %v (skipped)\n", e)
	}
	for _, w := range rt.Warnings() {
		env.warn("extension " + w.Error())
	}
	opts.Hooks = append(opts.Hooks, rt.Hooks()...)
	for _, p := range rt.Providers() {
		if err := reg.AddProvider(p.Name, p.Config, p.Extension); err != nil {
			fmt.Fprintf(env.stderr, "gopi: extension provider: %v\n", err)
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
				fmt.Fprintf(env.stderr, "gopi: extension: the tool %s is already defined; the extension's is skipped\n", name)
				continue
			}
			taken[name] = true
			tools = append(tools, t)
		}
		if err := s.Tools().SetExtension(tools); err != nil {
			fmt.Fprintf(env.stderr, "gopi: extension tools: %v\n", err)
		}
		unsub := s.Subscribe(func(e agent.Event) { rt.Observe(e) })
		s.OnClose(func() { unsub(); rt.Close() })
		bound.Store(s)
		rt.Bind(extensions.SessionHost(s))
		env.extCommands = rt.Commands()
		env.extShortcuts = rt.Shortcuts()
		env.extRenderers = rt.Renderers()
		// Only the tools that joined the session (a skipped one must not
		// draw the built-in of its name).
		env.extToolRenderers = map[string]*extensions.ToolRenderer{}
		for name, tr := range rt.ToolRenderers() {
			for _, t := range tools {
				if t.Definition().Name == name {
					env.extToolRenderers[name] = tr
				}
			}
		}
	}, rt.Close
}

// warn reports a problem found while the session starts: on stderr now,
// and again in the interactive mode's transcript or as an RPC notify,
// where stderr is easily missed.
func (env *cliEnv) warn(msg string) {
	fmt.Fprintf(env.stderr, "gopi: warning: %s\n", msg)
	env.warnings = append(env.warnings, msg)
}
