package extensions

import (
	"path/filepath"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/frontmatter"
)

// The helpers of omp's and pi's packages that community extensions import
// by name rather than reach through pi.* (prelude.js hands them out with
// the host modules): the agent directory and the frontmatter parser.

// installHostHelpers defines the Go side of those helpers.
func (r *Runtime) installHostHelpers(rt *goja.Runtime) {
	rt.Set("__gopiAgentDir", func() string { return r.agentDir() })
	rt.Set("__gopiParseFrontmatter", func(text string) map[string]any {
		// A malformed header gives the fields that could be read (none
		// at worst) and the body, as pi's parser does: no exception.
		meta, body, _ := frontmatter.Parse([]byte(text))
		if meta == nil {
			meta = map[string]any{}
		}
		return map[string]any{"frontmatter": meta, "body": body}
	})
}

// agentDir is gopi's agent directory: Options.AgentDir, else the one the
// extensions' environment names.
func (r *Runtime) agentDir() string {
	if r.opts.AgentDir != "" {
		return r.opts.AgentDir
	}
	home := r.envValue("HOME")
	return filepath.Clean(config.AgentDirFor(r.envValue, home, r.cwd()))
}
