package plugins

import "github.com/gopi-agent/gopi/core/config"

// SourcesFor says where a configuration's installed plugins are
// registered: gopi's agent directory and project, then omp's (~/.omp and
// .omp); an untrusted project's registries are left out.
func SourcesFor(cfg *config.Config) Sources {
	return Sources{
		Layout:      Layout{Root: cfg.AgentDir},
		ProjectDir:  cfg.ProjectDir,
		OMPLayout:   Layout{Root: cfg.OMPRoot},
		OMPProject:  cfg.OMPProjectDir,
		SkipProject: !cfg.ProjectTrusted(),
	}
}

// ManagerFor returns the manager of gopi's marketplaces and installed
// plugins for a configuration.
func ManagerFor(cfg *config.Config) *Manager {
	return &Manager{
		Layout:     Layout{Root: cfg.AgentDir},
		ProjectDir: cfg.ProjectDir,
		Home:       cfg.Home,
		Cwd:        cfg.Cwd,
		Git:        Git{Environ: cfg.Env.Environ()},
		NPM:        NPM{Environ: cfg.Env.Environ()},
	}
}
