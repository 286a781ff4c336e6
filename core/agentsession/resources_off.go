package agentsession

import (
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/rules"
	"github.com/gopi-agent/gopi/core/templates"
)

// Resources turned off in the settings, as omp's discovery leaves them
// out: disabledProviders drops every directory of a source (claude,
// codex, cursor, …; gopi's own cannot be turned off), disabledExtensions
// single entries by "<kind>:<name>" (rule:, prompt:, slash-command:,
// mcp:, context-file:<level>:<file name>; skills and extension modules
// apply their own skill: and extension-module: entries). The Extension Control Center (/extensions)
// writes both.

// resourcesOff is what the settings turn off.
type resourcesOff struct {
	providers []string // disabledProviders
	entries   []string // disabledExtensions
}

// offIn reads what the settings turn off.
func offIn(st *config.Settings) resourcesOff {
	return resourcesOff{providers: st.Strings("disabledProviders"), entries: st.Strings("disabledExtensions")}
}

// dirs drops the directories of the sources turned off.
func (o resourcesOff) dirs(dirs []config.ResourceDir) []config.ResourceDir {
	return slices.DeleteFunc(slices.Clone(dirs), func(d config.ResourceDir) bool {
		return d.Provider != config.ProviderNative && slices.Contains(o.providers, d.Provider)
	})
}

// skills applies the sources turned off to the skills' settings (the
// custom directories are the "custom" source).
func (o resourcesOff) skills(st config.Skills) config.Skills {
	if slices.Contains(o.providers, config.ProviderCustom) {
		st.CustomDirectories = nil
	}
	return st
}

// rules drops the rules turned off by name.
func (o resourcesOff) rules(set *rules.Set) *rules.Set {
	if !slices.ContainsFunc(o.entries, func(e string) bool { return strings.HasPrefix(e, "rule:") }) {
		return set
	}
	kept := slices.DeleteFunc(slices.Clone(set.All), func(r *rules.Rule) bool { return slices.Contains(o.entries, "rule:"+r.Name) })
	return rules.New(kept)
}

// templates drops the prompt templates and commands turned off by name.
func (o resourcesOff) templates(set *templates.Set) *templates.Set {
	return set.Without(func(t *templates.Template) bool { return slices.Contains(o.entries, t.ExtensionID()) })
}

// contextFiles returns the context files turned off, as
// "<level>:<file name>".
func (o resourcesOff) contextFiles() []string {
	var out []string
	for _, e := range o.entries {
		if name, ok := strings.CutPrefix(e, "context-file:"); ok {
			out = append(out, name)
		}
	}
	return out
}

// mcpServers adds the MCP servers turned off by name to those
// disabledServers turns off.
func (o resourcesOff) mcpServers(disabled []string) []string {
	out := slices.Clone(disabled)
	for _, e := range o.entries {
		if name, ok := strings.CutPrefix(e, "mcp:"); ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}
