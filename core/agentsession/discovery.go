package agentsession

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/core/tools/toolsearch"
)

// discovery is the tool set's tool discovery (tools.discoveryMode): which
// tools are hidden until search_tool_bm25 finds them, and which searches
// have activated. It is the search tool's toolsearch.Host.
type discovery struct {
	cfg      config.Discovery
	explicit []string             // Options.ToolNames: built-ins asked for by name are never hidden
	activate func() error         // rebuilds the offered tools after an activation
	record   func([]string) error // stores the selection in the session file (mcp_tool_selection)
	servers  map[string]bool      // mcp.discoveryDefaultServers
	essent   map[string]bool      // built-ins "all" mode keeps offered
	mu       sync.Mutex           // guards what follows
	selected []string             // activated names, in activation order
	hidden   []toolsearch.Doc     // what the last split hid, not yet activated
	byName   map[string]bool      // names of hidden
}

// newDiscovery returns the discovery of a tool set with cfg; rebuild
// re-offers the tools after an activation and record stores the whole
// selection in the session file, as omp's mcp_tool_selection entry.
func newDiscovery(cfg config.Discovery, explicit []string, rebuild func() error, record func([]string) error) *discovery {
	d := &discovery{cfg: cfg, explicit: explicit, activate: rebuild, record: record, servers: map[string]bool{}, essent: map[string]bool{}}
	for _, s := range cfg.DefaultServers {
		d.servers[s] = true
	}
	for _, n := range cfg.Essential {
		d.essent[n] = true
	}
	return d
}

// on reports whether tools are hidden at all.
func (d *discovery) on() bool {
	return d != nil && d.cfg.Mode != config.DiscoveryOff && d.cfg.Mode != ""
}

// split hides the discoverable tools of tools that no search has
// activated and returns the rest with search_tool_bm25 after them. With
// discovery off it returns tools as they are.
func (d *discovery) split(tools []tool.Tool) []tool.Tool {
	if !d.on() {
		return tools
	}
	d.mu.Lock()
	var offered []tool.Tool
	d.hidden, d.byName = nil, map[string]bool{}
	for _, tl := range tools {
		def := tl.Definition()
		if def.Name == toolsearch.Name {
			continue // an earlier build's; a fresh one comes last
		}
		if !d.hides(tl) || slices.Contains(d.selected, def.Name) {
			offered = append(offered, tl)
			continue
		}
		d.hidden = append(d.hidden, docOf(tl))
		d.byName[def.Name] = true
	}
	d.mu.Unlock()
	return append(offered, toolsearch.New(d))
}

// hides reports whether tl waits for a search in this mode.
func (d *discovery) hides(tl tool.Tool) bool {
	if srv, ok := tl.(interface{ Server() string }); ok {
		return !d.servers[srv.Server()]
	}
	name := tl.Definition().Name
	return d.cfg.Mode == config.DiscoveryAll && registry.Discoverable(name) && !d.essent[name] && !slices.Contains(d.explicit, name)
}

// Hidden returns the tools a search can find now.
func (d *discovery) Hidden() []toolsearch.Doc {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.hidden)
}

// Selected returns the names earlier searches activated.
func (d *discovery) Selected() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.selected)
}

// Activate offers the hidden tools among names from the next model call
// on and returns those it activated.
func (d *discovery) Activate(names []string) ([]string, error) {
	d.mu.Lock()
	var added []string
	for _, n := range names {
		if d.byName[n] && !slices.Contains(d.selected, n) {
			d.selected = append(d.selected, n)
			added = append(added, n)
		}
	}
	selected := slices.Clone(d.selected)
	d.mu.Unlock()
	if len(added) == 0 {
		return nil, nil
	}
	if d.record != nil {
		if err := d.record(selected); err != nil {
			return added, fmt.Errorf("recording the activated tools in the session file: %w", err)
		}
	}
	return added, d.activate()
}

// restore takes the selection a session file records (the latest
// mcp_tool_selection on the path; none clears it); the caller rebuilds the
// offered tools. A recorded name no tool has any more is kept, and offered
// again should the tool come back (a server that starts later).
func (d *discovery) restore(names []string) {
	if d == nil {
		return
	}
	d.mu.Lock()
	d.selected = slices.Clone(names)
	d.mu.Unlock()
}

// docOf is what the discovery index knows of tl: MCP tools with their
// server and remote name and their whole description, built-ins with the
// start of theirs.
func docOf(tl tool.Tool) toolsearch.Doc {
	def := tl.Definition()
	doc := toolsearch.Doc{Name: def.Name, Label: def.Label, Summary: def.Description}
	if doc.Label == "" {
		doc.Label = def.Name
	}
	if srv, ok := tl.(interface{ Server() string }); ok {
		doc.Server = srv.Server()
		if r, ok := tl.(interface{ RemoteName() string }); ok {
			doc.MCPName = r.RemoteName()
		}
	} else if len(doc.Summary) > toolsearch.SummaryLen {
		doc.Summary = truncateRunes(doc.Summary, toolsearch.SummaryLen)
	}
	if def.Parameters != nil {
		for k := range def.Parameters.Properties {
			doc.SchemaKeys = append(doc.SchemaKeys, k)
		}
		sort.Strings(doc.SchemaKeys)
	}
	return doc
}

// truncateRunes cuts s to at most n runes.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// recordToolSelection appends the discovery selection to the session file.
func (s *Session) recordToolSelection(names []string) error {
	_, err := s.Store().Record(session.MCPToolSelection{SelectedToolNames: names})
	return err
}
