package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/plugins"
	"github.com/gopi-agent/gopi/core/templates"
)

// /marketplace and /plugins: the plugin marketplaces of core/plugins.
// Without arguments /marketplace opens a browser of the plugins the added
// marketplaces offer (Enter installs one at user scope); with arguments
// it runs the same subcommands as `gopi plugin`. Changes apply to
// sessions started afterwards.

// marketplaceMsg carries what a plugin operation printed, or its error.
type marketplaceMsg struct {
	text string
	err  error
}

// marketplaceVerbs are /marketplace's words that manage marketplaces
// (the rest are plugin operations).
var marketplaceVerbs = map[string]bool{"add": true, "remove": true, "rm": true, "update": true, "list": true}

// cmdMarketplace is /marketplace [subcommand].
func (m *model) cmdMarketplace(args string) tea.Cmd {
	words := templates.SplitArgs(args)
	if len(words) == 0 {
		return m.marketplaceBrowser()
	}
	if marketplaceVerbs[words[0]] {
		words = append([]string{"marketplace"}, words...)
	}
	return m.runPlugins(words)
}

// cmdPlugins is /plugins [list|enable|disable] [name@marketplace].
func (m *model) cmdPlugins(args string) tea.Cmd {
	words := templates.SplitArgs(args)
	if len(words) > 0 && words[0] != "list" && words[0] != "enable" && words[0] != "disable" {
		return m.printSection(m.r.notice("Usage: /plugins [list|enable|disable] [name@marketplace]"))
	}
	return m.runPlugins(words)
}

// cmdReloadPlugins explains when plugin changes apply.
func (m *model) cmdReloadPlugins(string) tea.Cmd {
	return m.printSection(m.r.notice("Plugins load when a session starts: /new (or a restart) picks up what /marketplace installed, removed, enabled or disabled"))
}

// runPlugins runs one plugin subcommand in the background and prints
// its output.
func (m *model) runPlugins(words []string) tea.Cmd {
	inv, err := plugins.ParseInvocation(words)
	if err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	cfg := m.s.Config()
	ctx := m.ctx
	return m.busyCmd("Working on plugins…", func() tea.Msg {
		var out strings.Builder
		err := plugins.Run(ctx, plugins.ManagerFor(cfg), plugins.SourcesFor(cfg), inv, &out)
		return marketplaceMsg{text: out.String(), err: err}
	})
}

// onMarketplace prints a plugin operation's result.
func (m *model) onMarketplace(msg marketplaceMsg) tea.Cmd {
	var blocks []string
	if t := strings.TrimRight(msg.text, "\n"); t != "" {
		blocks = append(blocks, clean(t))
	}
	if msg.err != nil {
		text := strings.TrimPrefix(msg.err.Error(), plugins.ErrUsage.Error()+": ")
		if strings.Contains(text, "\n") {
			blocks = append(blocks, m.r.notice(text))
		} else {
			blocks = append(blocks, m.r.errorLine(text))
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	return m.printSection(blocks...)
}

// marketplaceBrowser opens a picker of the plugins the marketplaces
// offer; choosing one installs it at user scope.
func (m *model) marketplaceBrowser() tea.Cmd {
	cfg := m.s.Config()
	mgr := plugins.ManagerFor(cfg)
	list, err := mgr.Available("")
	if err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	if len(list) == 0 {
		return m.printSection(m.r.notice("No marketplace plugins to browse: /marketplace add <owner/repo | Git URL | directory> adds a marketplace"))
	}
	installed := map[string]bool{}
	if got, _ := plugins.List(plugins.SourcesFor(cfg)); got != nil {
		for _, p := range got {
			installed[p.ID.String()] = true
		}
	}
	var items []pickItem
	for _, l := range list {
		label := l.ID.String()
		if installed[label] {
			label += "  " + m.th.dim.Render("(installed)")
		}
		if d := l.Entry.Description; d != "" {
			label += "  " + m.th.dim.Render(clean(d))
		}
		items = append(items, pickItem{label: label, search: l.ID.String() + " " + l.Entry.Description + " " + l.Entry.Category, value: l.ID})
	}
	m.picker = &picker{title: "Install a plugin (Enter installs at user scope; new sessions load it)", items: items, onPick: func(it pickItem) tea.Cmd {
		id := it.value.(plugins.ID)
		return m.runPlugins([]string{"install", id.String()})
	}}
	return nil
}
