package launch

import (
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/plugins"
)

// loadPlugins collects what the enabled plugins and the --plugin-dir
// directories contribute; problems are reported as warnings.
func loadPlugins(r *Request, cfg *config.Config, started *Started) *plugins.Contributions {
	roots, errs := plugins.Roots(plugins.SourcesFor(cfg), r.PluginDirs)
	c := plugins.Collect(roots)
	for _, e := range append(errs, c.Warnings...) {
		started.warn(r, e.Error())
	}
	return c
}
