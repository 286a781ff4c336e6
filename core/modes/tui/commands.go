package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
)

// slashCommand is one of the / commands.
type slashCommand struct {
	name, args, help string
	run              func(m *model, args string) tea.Cmd
}

// commands lists the slash commands in the order /help shows them.
var commands []slashCommand

// commandAliases are other names of commands, as omp has them.
var commandAliases = map[string]string{"exit": "quit", "models": "model", "status": "extensions", "bg": "background"}

func init() {
	commands = []slashCommand{
		{"model", "[query]", "pick the model, or one for a role, and its thinking level (with a query: the first match; also /models)", (*model).cmdModel},
		{"thinking", "[level]", "set the thinking level: off, minimal, low, medium, high, xhigh", (*model).cmdThinking},
		{"fast", "[on|off|status]", "toggle fast mode (OpenAI's priority service tier)", (*model).cmdFast},
		{"loop", "[count|duration]", "toggle loop mode: the next prompt is sent again each time the agent finishes", (*model).cmdLoop},
		{"force", "<tool> [prompt]", "make the next model call use one tool", (*model).cmdForce},
		{"compact", "[instructions]", "summarise the conversation so far to free the context", (*model).cmdCompact},
		{"context", "", "what fills the context window, by part, in tokens", (*model).cmdContext},
		{"usage", "", "this session's tokens and cost per model", (*model).cmdUsage},
		{"retry", "", "send the last turn again when it failed or was aborted", (*model).cmdRetry},
		{"btw", "<question>", "ask a side question about the conversation (nothing is added to it)", (*model).cmdBtw},
		{"tree", "", "move to another point of this session's tree (Tab cycles the filter)", (*model).cmdTree},
		{"branch", "", "start a new session from one of your messages", (*model).cmdBranch},
		{"fork", "", "copy this whole session into a new file and continue there", (*model).cmdFork},
		{"new", "", "start a new session", (*model).cmdNew},
		{"drop", "", "delete this session's file and start a new session", (*model).cmdDrop},
		{"resume", "", "switch to another session of this directory", (*model).cmdResume},
		{"rename", "<title>", "name this session", (*model).cmdRename},
		{"move", "<path>", "move this session (and the tools' working directory) to another directory", (*model).cmdMove},
		{"handoff", "[focus]", "have the model write a handoff and continue in a fresh session", (*model).cmdHandoff},
		{"export", "[file.html]", "write this session as a web page", (*model).cmdExport},
		{"share", "", "publish this session as a secret GitHub gist (needs gh)", (*model).cmdShare},
		{"dump", "", "copy the conversation as Markdown to the clipboard", (*model).cmdDump},
		{"copy", "[last|code|all|cmd]", "copy the last answer, its last code block, all its code blocks, or the last command run", (*model).cmdCopy},
		{"session", "[info|delete]", "this session's file, messages, tokens and cost; delete removes it", (*model).cmdSession},
		{"todo", "[verb]", "show or change the todo plan (/todo help)", (*model).cmdTodo},
		{"jobs", "", "the background jobs, running and recent", (*model).cmdJobs},
		{"background", "", "let the agent finish in the background, the UI closed (also /bg)", (*model).cmdBackground},
		{"tools", "", "the tools offered to the model", (*model).cmdTools},
		{"agents", "", "Agent Control Center: the task tool's agents; turn them off, override their models", (*model).cmdAgents},
		{"extensions", "", "Extension Control Center: everything extending the session; turn entries off (also /status)", (*model).cmdExtensions},
		{"settings", "", "change settings: tabs, switches, lists and text fields, saved in config.yml", (*model).cmdSettings},
		{"skills", "", "the skills, rules and prompt templates found for this session", (*model).cmdSkills},
		{"mcp", "", "the MCP servers: state, tools and problems", (*model).cmdMCP},
		{"memory", "[view|clear|enqueue|mm …]", "show or manage what the memory backend gives the model", (*model).cmdMemory},
		{"browser", "[headless|visible]", "show or switch the browser tool's mode for this session", (*model).cmdBrowser},
		{"marketplace", "[add|remove|update|list|discover|install|uninstall|upgrade] …", "browse marketplaces and install plugins", (*model).cmdMarketplace},
		{"plugins", "[list|enable|disable]", "installed plugins", (*model).cmdPlugins},
		{"reload-plugins", "", "when plugin changes apply", (*model).cmdReloadPlugins},
		{"login", "[provider]", "log in to a provider (subscription sign-in or API key), stored in agent.db", (*model).cmdLogin},
		{"logout", "[provider]", "remove a provider's credentials from gopi's agent.db", (*model).cmdLogout},
		{"ssh", "[add|list|remove|help]", "manage the ssh tool's hosts (ssh.json)", (*model).cmdSSH},
		{"debug", "", "debugging aids: system info, the conversation to a file, the artifact folder", (*model).cmdDebug},
		{"changelog", "", "where this build's changes are described", (*model).cmdChangelog},
		{"plan", "[prompt]", "toggle plan mode (agent plans before executing)", (*model).cmdPlan},
		{"hotkeys", "", "the key bindings", (*model).cmdHotkeys},
		{"help", "", "this list", (*model).cmdHelp},
		{"quit", "", "exit (also /exit)", func(m *model, _ string) tea.Cmd { return m.quit() }},
	}
}

// command runs "/name args". A skill (/skill:<name>) or a prompt template
// is sent to the model like a message: delivered as d while the agent
// works.
func (m *model) command(line string, d agentsession.Delivery) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	args = strings.TrimSpace(args)
	if alias, ok := commandAliases[name]; ok {
		name = alias
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(m, args)
		}
	}
	for _, c := range m.extCommands() {
		if c.Name == name {
			ctx, run := m.ctx, c.Run
			return m.busyCmd("/"+name+" (extension)…", func() tea.Msg {
				if err := run(ctx, args); err != nil {
					return errMsg{fmt.Errorf("/%s: %w", name, err)}
				}
				return nil
			})
		}
	}
	if m.promptCommand(name) {
		if m.running {
			return m.queue(line, d)
		}
		return m.prompt(line)
	}
	return m.printSection(m.r.errorLine(fmt.Sprintf("Unknown command /%s: /help lists the commands", name)))
}

// promptCommand reports whether /name is a skill or a prompt template,
// which the session expands into a message.
func (m *model) promptCommand(name string) bool {
	if sk, ok := strings.CutPrefix(name, "skill:"); ok {
		if !m.s.Resources().SkillCommandsEnabled() {
			return false
		}
		for _, x := range m.s.Resources().Skills() {
			if x.Name == sk {
				return true
			}
		}
		return false
	}
	for _, t := range m.s.Resources().Templates() {
		if t.Name == name {
			return true
		}
	}
	return false
}

// promptCommandNames lists /skill:<name> (when skill commands are on) and
// the templates' names, for completion.
func (m *model) promptCommandNames() []string {
	var out []string
	if m.s.Resources().SkillCommandsEnabled() {
		for _, x := range m.s.Resources().Skills() {
			out = append(out, "skill:"+x.Name)
		}
	}
	for _, t := range m.s.Resources().Templates() {
		if !BuiltinCommand(t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

// cmdSkills lists the skills, rules and prompt templates of the session.
func (m *model) cmdSkills(string) tea.Cmd {
	lines := []string{m.th.title.Render("Skills") + m.th.dim.Render("  (/skill:<name> [text] sends one; the model reads them as skill://<name>)")}
	sks := m.s.Resources().Skills()
	if len(sks) == 0 {
		lines = append(lines, "  none found (see the README: <dir>/skills/<name>/SKILL.md)")
	}
	for _, x := range sks {
		lines = append(lines, fmt.Sprintf("  %-24s %s %s", x.Name, clean(x.Description), m.th.dim.Render("("+x.Provider+", "+string(x.Level)+")")))
	}
	rs := m.s.Resources().Rules()
	lines = append(lines, m.th.title.Render("Rules"))
	if rs == nil || len(rs.All) == 0 {
		lines = append(lines, "  none found")
	} else {
		for _, r := range rs.TTSR {
			lines = append(lines, fmt.Sprintf("  %-24s %s", r.Name, "stream rule: "+strings.Join(r.Condition, " | ")))
		}
		for _, r := range rs.AlwaysApply {
			lines = append(lines, fmt.Sprintf("  %-24s %s", r.Name, "always applied (in the system prompt)"))
		}
		for _, r := range rs.Rulebook {
			lines = append(lines, fmt.Sprintf("  %-24s %s", r.Name, clean(r.Description)+" (rulebook: rule://"+r.Name+")"))
		}
	}
	lines = append(lines, m.th.title.Render("Prompt templates"))
	ts := m.s.Resources().Templates()
	if len(ts) == 0 {
		lines = append(lines, "  none found")
	}
	for _, t := range ts {
		lines = append(lines, fmt.Sprintf("  /%-23s %s", t.Name, clean(t.Description)))
	}
	for _, w := range m.s.Resources().Warnings() {
		lines = append(lines, m.r.errorLine(w.Error()))
	}
	return m.printSection(strings.Join(lines, "\n"))
}

// busyCmd runs work that takes a while, with a working line and Esc to
// cancel it.
func (m *model) busyCmd(what string, work func() tea.Msg) tea.Cmd {
	m.busy = what
	return tea.Batch(m.tick(), func() tea.Msg {
		msg := work()
		return tea.BatchMsg{func() tea.Msg { return busyMsg{} }, func() tea.Msg { return msg }}
	})
}

func (m *model) cmdModel(args string) tea.Cmd {
	avail := m.s.Model().Available()
	if len(avail) == 0 {
		return m.printSection(m.r.errorLine("No model has a key: /login, set one (e.g. ANTHROPIC_API_KEY) or add models.yml; `gopi models` lists them"))
	}
	p := m.modelPicker(avail, nil, nil)
	if args != "" {
		p.query = args
		if shown := p.shown(); len(shown) > 0 {
			return m.setModel(p.items[shown[0]].value.(*ai.Model))
		}
		return m.printSection(m.r.errorLine("No model matches " + args + ": /model lists them"))
	}
	m.picker = p
	return nil
}

func (m *model) setModel(md *ai.Model) tea.Cmd {
	s := m.s
	return func() tea.Msg {
		if err := s.Model().Set(md); err != nil {
			return errMsg{err}
		}
		return tea.BatchMsg{func() tea.Msg { return noticeMsg{"Model: " + md.Provider + "/" + md.ID} }, m.refreshStatus()}
	}
}

func (m *model) cmdThinking(args string) tea.Cmd {
	set := func(l ai.ThinkingLevel) tea.Cmd {
		s := m.s
		return func() tea.Msg {
			if err := s.Model().SetThinkingDefault(l); err != nil {
				return errMsg{err}
			}
			return tea.BatchMsg{func() tea.Msg { return noticeMsg{"Thinking: " + string(l)} }, m.refreshStatus()}
		}
	}
	if args != "" {
		l, ok := ai.ParseThinkingLevel(args)
		if !ok {
			return m.printSection(m.r.errorLine("Unknown thinking level " + args + ": use off, minimal, low, medium, high or xhigh"))
		}
		return set(l)
	}
	cur := m.s.Agent().Thinking()
	var items []pickItem
	for _, l := range ai.ThinkingLevels {
		items = append(items, pickItem{label: string(l), value: l, active: l == cur})
	}
	m.picker = &picker{title: "Thinking level", items: items, onPick: func(it pickItem) tea.Cmd { return set(it.value.(ai.ThinkingLevel)) }}
	return nil
}

// cycleModel is Ctrl+P: as omp, it moves to the model of the next role of
// cycleOrder (smol, default, slow) and does not change config.yml.
func (m *model) cycleModel() tea.Cmd {
	s := m.s
	refresh := m.refreshStatus() // made here: it counts on the model's goroutine
	return func() tea.Msg {
		rc, err := s.Model().CycleRole()
		switch {
		case err != nil:
			return errMsg{err}
		case rc == nil:
			return noticeMsg{"Only one role model available"}
		}
		name := rc.Model.Name
		if name == "" {
			name = rc.Model.ID
		}
		text := "Switched to " + rc.Role + ": " + name
		if l := s.Agent().Thinking(); rc.Model.Reasoning && l != "" && l != ai.ThinkingOff {
			text += " (thinking: " + string(l) + ")"
		}
		text += " (cycle: " + strings.Join(rc.Order, " > ") + ")"
		return tea.BatchMsg{func() tea.Msg { return noticeMsg{text} }, refresh}
	}
}

func (m *model) cycleThinking() tea.Cmd {
	s := m.s
	refresh := m.refreshStatus() // made here: it counts on the model's goroutine
	return func() tea.Msg {
		l, err := s.Model().CycleThinking()
		switch {
		case err != nil:
			return errMsg{err}
		case l == "":
			return noticeMsg{"This model does not think"}
		}
		return tea.BatchMsg{func() tea.Msg { return noticeMsg{"Thinking: " + string(l)} }, refresh}
	}
}

func (m *model) cmdCompact(args string) tea.Cmd {
	ctx, s := m.ctx, m.s
	return m.busyCmd("Compacting the conversation…", func() tea.Msg {
		res, err := s.Compactor().Compact(ctx, args)
		switch {
		case err != nil:
			return errMsg{err}
		case res == nil:
			return noticeMsg{"Nothing was compacted"}
		}
		return reloadMsg{marker: fmt.Sprintf("compacted: %d tokens summarised", res.TokensBefore)}
	})
}

// treeFilters are the filters Tab cycles through in /tree.
var treeFilters = session.TreeFilters

func (m *model) cmdTree(string) tea.Cmd {
	filter := 0
	p := &picker{title: "Session tree", hint: "filter: " + string(treeFilters[filter]) + " (tab)"}
	load := func(p *picker) {
		rows := m.s.Tree().Rows(session.TreeQuery{Filter: treeFilters[filter]})
		p.items = p.items[:0]
		for _, r := range rows {
			label := r.Prefix() + clean(r.Text)
			if r.Label != "" {
				label = r.Prefix() + m.th.label.Render("["+clean(r.Label)+"] ") + clean(r.Text)
			}
			if r.Leaf {
				label += m.th.dim.Render("  ← you are here")
			}
			p.items = append(p.items, pickItem{label: label, search: r.Label + " " + r.Kind + " " + r.Text, value: r.Entry.ID, active: r.Active})
		}
		p.hint = "filter: " + string(treeFilters[filter]) + " (tab)"
	}
	load(p)
	if len(p.items) == 0 {
		return m.printSection(m.r.notice("The session is empty: nothing to move to"))
	}
	p.onTab = func(p *picker) { filter = (filter + 1) % len(treeFilters); load(p) }
	p.onPick = func(it pickItem) tea.Cmd {
		id := it.value.(string)
		ctx, s := m.ctx, m.s
		return m.busyCmd("Moving in the tree…", func() tea.Msg {
			res, err := s.Tree().Navigate(ctx, id, agentsession.NavigateOptions{})
			switch {
			case err != nil:
				return errMsg{err}
			case res.Cancelled:
				return noticeMsg{"The move was cancelled"}
			}
			msgs := []tea.Msg{reloadMsg{marker: "moved in the session tree"}}
			if res.EditorText != "" {
				msgs = append(msgs, editorMsg{text: res.EditorText})
			}
			return batch(msgs...)
		})
	}
	// Start on the current position.
	p.cursor = p.activeIndex()
	m.picker = p
	return nil
}

func (m *model) cmdBranch(string) tea.Cmd {
	points := m.s.Tree().BranchPoints()
	if len(points) == 0 {
		return m.printSection(m.r.notice("No messages yet: nothing to branch from"))
	}
	var items []pickItem
	for _, bp := range points {
		items = append(items, pickItem{label: oneLine(clean(bp.Text), 200), value: bp.EntryID})
	}
	p := &picker{title: "Branch from which message? (a new session holds the conversation before it)", items: items, cursor: len(items) - 1}
	p.onPick = func(it pickItem) tea.Cmd {
		ctx, s := m.ctx, m.s
		id := it.value.(string)
		return m.busyCmd("Branching…", func() tea.Msg {
			res, err := s.Tree().Branch(ctx, id)
			switch {
			case err != nil:
				return errMsg{err}
			case res.Cancelled:
				return noticeMsg{"The branch was cancelled"}
			}
			return batch(reloadMsg{marker: "branched into a new session"}, editorMsg{text: res.Text})
		})
	}
	m.picker = p
	return nil
}

func (m *model) cmdNew(string) tea.Cmd {
	ctx, s := m.ctx, m.s
	return m.busyCmd("Starting a new session…", func() tea.Msg {
		cancelled, err := s.Tree().New(ctx, "")
		switch {
		case err != nil:
			return errMsg{err}
		case cancelled:
			return noticeMsg{"A hook kept the current session"}
		}
		return reloadMsg{marker: "new session"}
	})
}

func (m *model) cmdResume(string) tea.Cmd {
	infos, err := session.List(m.s.Tree().Locations(), m.opts.Cwd)
	if err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	cur := m.s.SessionFile()
	var items []pickItem
	for _, in := range infos {
		title := in.Title
		if title == "" {
			title = in.FirstMessage
		}
		if title == "" {
			title = "(no messages)"
		}
		msgs := itoa(in.MessageCount)
		if in.Partial {
			msgs += "+"
		}
		label := fmt.Sprintf("%s  %s", oneLine(clean(title), 70), m.th.dim.Render(fmt.Sprintf("%s · %s msgs · %s", ago(in.Modified), msgs, in.ID[:min(8, len(in.ID))])))
		items = append(items, pickItem{label: label, search: title + " " + in.ID, value: in.Path, active: in.Path == cur})
	}
	if len(items) == 0 {
		return m.printSection(m.r.notice("No saved sessions in this directory yet"))
	}
	m.picker = &picker{title: "Resume a session (newest first)", items: items, onPick: func(it pickItem) tea.Cmd {
		ctx, s := m.ctx, m.s
		path := it.value.(string)
		return m.busyCmd("Opening the session…", func() tea.Msg {
			cancelled, err := s.Tree().Switch(ctx, path)
			switch {
			case err != nil:
				return errMsg{err}
			case cancelled:
				return noticeMsg{"A hook kept the current session"}
			}
			return reloadMsg{marker: "resumed " + filepath.Base(path)}
		})
	}}
	return nil
}

func (m *model) cmdHandoff(args string) tea.Cmd {
	ctx, s := m.ctx, m.s
	return m.busyCmd("Writing the handoff…", func() tea.Msg {
		res, err := s.Compactor().Handoff(ctx, args)
		switch {
		case err != nil:
			return errMsg{err}
		case res == nil:
			return noticeMsg{"The model wrote no handoff; the session is unchanged"}
		}
		return reloadMsg{marker: "handed off to a new session"}
	})
}

func (m *model) cmdExport(args string) tea.Cmd {
	if f := strings.Fields(args); len(f) > 0 {
		args = f[0]
	}
	switch args {
	case "--copy", "clipboard", "copy":
		return m.printSection(m.r.warning("/export writes a file: /dump copies the session to the clipboard"))
	}
	s := m.s
	return func() tea.Msg {
		path, err := s.ExportHTML(args)
		if err != nil {
			return errMsg{err}
		}
		return printMsg{notices: []string{"Exported to: " + path}}
	}
}

func (m *model) cmdSession(args string) tea.Cmd {
	switch strings.ToLower(strings.TrimSpace(args)) {
	case "", "info":
	case "delete":
		return m.sessionDelete()
	default:
		return m.printSection(m.r.errorLine("Usage: /session [info|delete]"))
	}
	st := m.s.Stats()
	file := st.SessionFile
	if file == "" {
		file = "(not saved: --no-session)"
	}
	lines := []string{
		m.th.title.Render("Session " + st.SessionID),
		"  file       " + file,
		fmt.Sprintf("  messages   %d user, %d assistant, %d tool results (%d tool calls)", st.UserMessages, st.AssistantMessages, st.ToolResults, st.ToolCalls),
		fmt.Sprintf("  tokens     %s in, %s out, %s cache read, %s cache write", human(st.Tokens.Input), human(st.Tokens.Output), human(st.Tokens.CacheRead), human(st.Tokens.CacheWrite)),
		fmt.Sprintf("  context    %s of %s", human(m.status.contextTokens), human(m.status.window)),
		fmt.Sprintf("  cost       $%.4f", st.Cost),
	}
	return m.printSection(strings.Join(lines, "\n"))
}

func (m *model) cmdMCP(string) tea.Cmd {
	st := m.s.Resources().MCPStatus()
	lines := []string{m.th.title.Render("MCP servers")}
	if len(st.Servers) == 0 && len(st.Errors) == 0 {
		if m.s.Resources().MCP() == nil {
			lines = append(lines, "  MCP is off for this session (--no-mcp)")
		} else {
			lines = append(lines, "  No MCP servers are configured: add them to .gopi/mcp.json or ~/.gopi/agent/mcp.json (README: MCP servers)")
		}
	}
	for _, sv := range st.Servers {
		line := fmt.Sprintf("  %-16s %-5s %-10s %d tools", sv.Name, sv.Type, sv.State, len(sv.Tools))
		if sv.Resources {
			line += ", resources at mcp://" + sv.Name
		}
		lines = append(lines, line)
		if sv.Error != "" {
			lines = append(lines, "    "+m.r.errorLine(sv.Error))
		}
		for _, w := range sv.Warnings {
			lines = append(lines, "    "+m.r.warning(w))
		}
	}
	for _, e := range st.Errors {
		lines = append(lines, "  "+m.r.errorLine(e))
	}
	if len(st.Disabled) > 0 {
		lines = append(lines, "  disabled: "+strings.Join(st.Disabled, ", "))
	}
	if cfg := m.s.Config(); cfg != nil && !cfg.ProjectTrusted() {
		var names []string
		for _, it := range cfg.ProjectTrust().Items {
			if it.Kind == config.TrustMCPServer {
				names = append(names, it.Name)
			}
		}
		if len(names) > 0 {
			lines = append(lines, "  not started, the project is not trusted: "+strings.Join(names, ", ")+" (restart with --trust-project, or see README: Project trust)")
		}
	}
	return m.printSection(strings.Join(lines, "\n"))
}

func (m *model) cmdHotkeys(string) tea.Cmd {
	lines := []string{m.th.title.Render("Keys")}
	for _, h := range hotkeys {
		lines = append(lines, fmt.Sprintf("  %-20s %s", h[0], h[1]))
	}
	for _, sc := range m.opts.Shortcuts {
		lines = append(lines, fmt.Sprintf("  %-20s %s", sc.Key, clean(sc.Description)+" (extension)"))
	}
	return m.printSection(strings.Join(lines, "\n"))
}

func (m *model) cmdHelp(string) tea.Cmd {
	lines := []string{m.th.title.Render("Commands")}
	for _, c := range commands {
		lines = append(lines, fmt.Sprintf("  /%-24s %s", strings.TrimSpace(c.name+" "+c.args), c.help))
	}
	for _, c := range m.extCommands() {
		lines = append(lines, fmt.Sprintf("  /%-24s %s", c.Name, clean(c.Description)+" (extension)"))
	}
	for _, n := range m.promptCommandNames() {
		what := "send the skill to the model"
		if !strings.HasPrefix(n, "skill:") {
			what = "send the prompt template (arguments fill $1, $2, $@)"
		}
		lines = append(lines, fmt.Sprintf("  /%-24s %s", n+" [text]", what))
	}
	lines = append(lines, "  !cmd, !!cmd               run a shell command (!! keeps it out of the model's context)")
	return m.printSection(strings.Join(lines, "\n"))
}

// batch turns messages into one.
func batch(msgs ...tea.Msg) tea.Msg {
	var cmds tea.BatchMsg
	for _, msg := range msgs {
		cmds = append(cmds, func() tea.Msg { return msg })
	}
	return cmds
}

// ago says how long ago t was, roughly.
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case t.IsZero():
		return "?"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return itoa(int(d.Minutes())) + " min ago"
	case d < 48*time.Hour:
		return itoa(int(d.Hours())) + " h ago"
	}
	return t.Format("2006-01-02")
}

// extCommands are the extensions' commands that do not clash with a
// built-in one.
func (m *model) extCommands() []ExtCommand {
	var out []ExtCommand
	for _, c := range m.opts.Commands {
		if !BuiltinCommand(c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// BuiltinCommand reports whether /name is one of the interactive mode's
// own commands (an extension's command of that name is left out).
func BuiltinCommand(name string) bool {
	if _, ok := commandAliases[name]; ok {
		return true
	}
	for _, b := range commands {
		if b.name == name {
			return true
		}
	}
	return false
}
