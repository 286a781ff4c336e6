package launch

import (
	"os"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/permission"
)

// LoadConfig loads the configuration the request runs with: its
// directory and environment, the role models as runtime settings, and in
// RPC mode the workflow settings back at their defaults. The
// configuration's own warnings are left in Config.Warnings for the front
// end to show.
func LoadConfig(r *Request) (*config.Config, error) {
	environ := r.Environ
	if r.NoPTY {
		// --no-pty is PI_NO_PTY=1 for this run.
		if environ == nil {
			environ = os.Environ()
		}
		environ = append(slices.Clip(environ), config.EnvNoPTY+"=1")
	}
	return config.Load(config.LoadOptions{Cwd: r.Cwd, Environ: environ, Overrides: r.overrides(), TrustProject: r.TrustProject})
}

// rpcResetPrefixes are the settings RPC mode puts back to their defaults:
// they change how a run proceeds, and a host expects the documented
// behaviour whatever the user configured.
var rpcResetPrefixes = []string{"todo.", "task.", "async.", "bash.autoBackground."}

// overrides turns the role models and --no-lsp into runtime settings
// (and, in RPC mode, resets the workflow settings).
func (r *Request) overrides() map[string]any {
	o := map[string]any{}
	if r.Mode == RPC {
		for _, k := range config.Keys() {
			for _, p := range rpcResetPrefixes {
				if strings.HasPrefix(k, p) {
					if d, ok := config.Lookup(k); ok {
						o[k] = d.Default
					}
				}
			}
		}
	}
	if r.NoLSP {
		o["lsp.enabled"] = false
	}
	for role, v := range map[string]string{"smol": r.Smol, "slow": r.Slow, "plan": r.Plan} {
		if v != "" {
			o["modelRoles."+role] = v
		}
	}
	return o
}

// PermissionsFor is the permission gate of a mode with someone to ask
// (core/permission): the setting lists the calls put to the user; the
// question goes through the UI the mode gives the session (the terminal's
// picker, an RPC host's extension UI select dialog). Print and JSON modes
// have no one to ask and no gate; ACP builds its own, asking the editor.
func PermissionsFor(m Mode, cfg *config.Config) permission.Options {
	switch m {
	case Interactive:
		return permission.Options{Require: cfg.Settings.RequirePermission(config.PermissionTUI), Setting: "tui.requirePermission"}
	case RPC:
		return permission.Options{Require: cfg.Settings.RequirePermission(config.PermissionRPC), Setting: "rpc.requirePermission"}
	}
	return permission.Options{}
}
