package launch

import (
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/plugins"
)

// PluginSources says where a configuration's installed plugins are
// registered: gopi's agent directory and project, then omp's.
func PluginSources(cfg *config.Config) plugins.Sources {
	return plugins.Sources{
		Layout:      plugins.Layout{Root: cfg.AgentDir},
		ProjectDir:  cfg.ProjectDir,
		OMPLayout:   plugins.Layout{Root: cfg.OMPRoot},
		OMPProject:  cfg.OMPProjectDir,
		SkipProject: !cfg.ProjectTrusted(),
	}
}

// loadPlugins collects what the enabled plugins and the --plugin-dir
// directories contribute; problems are reported as warnings.
func loadPlugins(r *Request, cfg *config.Config, started *Started) *plugins.Contributions {
	roots, errs := plugins.Roots(PluginSources(cfg), r.PluginDirs)
	c := plugins.Collect(roots)
	for _, e := range append(errs, c.Warnings...) {
		started.warn(r, e.Error())
	}
	return c
}

// PluginManager returns the manager of gopi's marketplaces and installed
// plugins for a configuration (the CLI's `gopi plugin` and the TUI's
// /marketplace).
func PluginManager(cfg *config.Config) *plugins.Manager {
	return &plugins.Manager{
		Layout:     plugins.Layout{Root: cfg.AgentDir},
		ProjectDir: cfg.ProjectDir,
		Home:       cfg.Home,
		Cwd:        cfg.Cwd,
		Git:        plugins.Git{Environ: cfg.Env.Environ()},
	}
}
