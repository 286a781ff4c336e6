package tui

import (
	"context"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/plugins"
	"github.com/gopi-agent/gopi/core/tools/task"
)

// The Agent Control Center (/agents): the agent definitions the task tool
// can start (project, user, bundled) under source tabs, the selected
// one's model, tools, description and file. Space turns an agent off or
// on (task.disabledAgents); Enter edits its model override
// (task.agentModelOverrides); N has the model write a new agent
// (agentdash_create.go); Ctrl+R reads the definitions again. Both
// settings go to the global settings file, as omp writes them.

// agentSources orders and names the definitions' sources.
var agentSources = []struct{ id, label string }{
	{task.SourceProject, "Project"},
	{task.SourceUser, "User"},
	{task.SourceBundled, "Bundled"},
}

// sourceLabel returns a source's display name.
func sourceLabel(id string) string {
	for _, s := range agentSources {
		if s.id == id {
			return s.label
		}
	}
	return id
}

// agentDash is the open Agent Control Center.
type agentDash struct {
	cfg      *config.Config
	resolve  func(patterns []string) (*ai.Model, bool) // the model patterns name, as the task tool resolves them
	suggest  func(query string) []string               // models matching an override being typed
	loading  bool
	agents   []*task.Agent
	problems []string
	tabs     []dashTab
	active   int
	query    string
	cursor   int
	scroll   int
	notice   string
	disabled []string          // task.disabledAgents as shown
	override map[string]string // task.agentModelOverrides as shown

	editing string          // the agent whose override is being edited, "" when none
	input   textinput.Model // the override being edited
	create  *agentCreate    // the N flow, nil when none

	ctx          context.Context                                                  // the session's: ends a generation with it
	generateText func(ctx context.Context, system, prompt string) (string, error) // asks the current model

	saveDisabled  *settingSaver
	saveOverrides *settingSaver
}

// agentsMsg brings the definitions read for an open centre.
type agentsMsg struct {
	d        *agentDash
	agents   []*task.Agent
	problems []error
}

// cmdAgents opens the Agent Control Center; the definitions are read by a
// command and shown when they arrive.
func (m *model) cmdAgents(string) tea.Cmd {
	cfg := m.s.Config()
	conv := m.s.Conversation()
	d := &agentDash{cfg: cfg, loading: true, resolve: m.s.Conversation().AgentModel, ctx: m.ctx,
		generateText: func(ctx context.Context, system, prompt string) (string, error) {
			return conv.Generate(ctx, system, prompt, "agent generation", nil)
		},
		disabled: cfg.Settings.Strings("task.disabledAgents"), override: cfg.Settings.StringMap("task.agentModelOverrides")}
	ms := m.s.Model()
	d.suggest = func(q string) []string {
		q = strings.ToLower(strings.TrimSpace(q))
		var out []string
		if q == "" {
			return nil
		}
		for _, md := range ms.Available() {
			full := md.Provider + "/" + md.ID
			if strings.Contains(strings.ToLower(full), q) && !slices.Contains(out, full) {
				out = append(out, full)
			}
			if len(out) == 5 {
				break
			}
		}
		return out
	}
	d.saveDisabled = &settingSaver{settings: cfg.Settings, key: "task.disabledAgents", value: func() any {
		names := slices.Clone(d.disabled)
		slices.Sort(names)
		return stringsValue(names)
	}}
	d.saveOverrides = &settingSaver{settings: cfg.Settings, key: "task.agentModelOverrides", value: func() any {
		out := map[string]any{}
		for k, v := range d.override {
			out[k] = v
		}
		return out
	}}
	d.tabs = []dashTab{{id: "all", label: "All"}}
	m.dash = d
	return d.reload()
}

// reload reads the definitions again.
func (d *agentDash) reload() tea.Cmd {
	d.loading = true
	cfg := d.cfg
	return func() tea.Msg {
		agents, problems := task.Discover(cfg.Dirs, plugins.InstalledAgentDirs(cfg)...)
		return agentsMsg{d: d, agents: agents, problems: problems}
	}
}

// loaded shows the definitions read, the selection kept on the agent it
// was on.
func (d *agentDash) loaded(msg agentsMsg) {
	keep := ""
	if a := d.selected(); a != nil {
		keep = a.Name
	}
	d.loading = false
	rank := func(src string) int {
		return slices.IndexFunc(agentSources, func(s struct{ id, label string }) bool { return s.id == src })
	}
	d.agents = slices.Clone(msg.agents)
	sort.SliceStable(d.agents, func(i, j int) bool {
		a, b := d.agents[i], d.agents[j]
		if rank(a.Source) != rank(b.Source) {
			return rank(a.Source) < rank(b.Source)
		}
		return a.Name < b.Name
	})
	d.problems = nil
	for _, p := range msg.problems {
		d.problems = append(d.problems, p.Error())
	}
	current := d.tabs[d.active].id
	d.tabs = []dashTab{{id: "all", label: "All", count: len(d.agents)}}
	for _, s := range agentSources {
		n := 0
		for _, a := range d.agents {
			if a.Source == s.id {
				n++
			}
		}
		if n > 0 {
			d.tabs = append(d.tabs, dashTab{id: s.id, label: s.label, count: n})
		}
	}
	d.active = max(0, slices.IndexFunc(d.tabs, func(t dashTab) bool { return t.id == current }))
	shown := d.shown()
	d.cursor = max(0, slices.IndexFunc(shown, func(a *task.Agent) bool { return a.Name == keep }))
}

// shown returns the agents of the tab the search keeps.
func (d *agentDash) shown() []*task.Agent {
	tab := d.tabs[d.active].id
	q := strings.ToLower(d.query)
	var out []*task.Agent
	for _, a := range d.agents {
		if tab != "all" && a.Source != tab {
			continue
		}
		if q == "" || strings.Contains(strings.ToLower(a.Name), q) || strings.Contains(strings.ToLower(a.Description), q) ||
			strings.Contains(strings.ToLower(sourceLabel(a.Source)), q) || strings.Contains(strings.ToLower(d.override[a.Name]), q) {
			out = append(out, a)
		}
	}
	return out
}

// selected returns the agent under the cursor, nil when none.
func (d *agentDash) selected() *task.Agent {
	if len(d.tabs) == 0 {
		return nil
	}
	shown := d.shown()
	if d.cursor < len(shown) {
		return shown[d.cursor]
	}
	return nil
}

// paste adds pasted text to the override being edited, else the search.
func (d *agentDash) paste(text string) {
	text = strings.Join(strings.Fields(text), " ")
	if d.editing != "" {
		d.input.SetValue(d.input.Value() + text)
		d.input.CursorEnd()
		return
	}
	d.query += text
	d.cursor, d.scroll = 0, 0
}

// key handles a key press.
func (d *agentDash) key(k tea.KeyPressMsg) (bool, tea.Cmd) {
	if k.String() == "ctrl+c" {
		d.closeCreate()
		return true, nil
	}
	if d.create != nil {
		return false, d.createKey(k)
	}
	if d.editing != "" {
		return false, d.editKey(k)
	}
	switch k.String() {
	case "esc":
		if d.query != "" {
			d.query, d.cursor, d.scroll = "", 0, 0
			return false, nil
		}
		return true, nil
	case "ctrl+r":
		d.notice = ""
		return false, d.reload()
	case "tab", "shift+tab":
		step := 1
		if k.String() == "shift+tab" {
			step = len(d.tabs) - 1
		}
		d.active = (d.active + step) % len(d.tabs)
		d.cursor, d.scroll = 0, 0
	case "up", "k", "ctrl+p":
		d.cursor = max(0, d.cursor-1)
	case "down", "j", "ctrl+n":
		d.cursor = min(max(0, len(d.shown())-1), d.cursor+1)
	case "space":
		return false, d.toggle()
	case "enter":
		d.beginEdit()
	case "n", "N":
		d.beginCreate()
	case "backspace":
		if d.query != "" {
			r := []rune(d.query)
			d.query, d.cursor, d.scroll = string(r[:len(r)-1]), 0, 0
		}
	default:
		if c, ok := searchKey(k); ok {
			d.query += c
			d.cursor, d.scroll = 0, 0
		}
	}
	return false, nil
}

// toggle turns the selected agent off or on and saves the list.
func (d *agentDash) toggle() tea.Cmd {
	a := d.selected()
	if a == nil {
		return nil
	}
	if i := slices.Index(d.disabled, a.Name); i >= 0 {
		d.disabled = slices.Delete(slices.Clone(d.disabled), i, i+1)
	} else {
		d.disabled = append(slices.Clone(d.disabled), a.Name)
	}
	return d.saveDisabled.save()
}

// beginEdit opens the model override of the selected agent for editing.
func (d *agentDash) beginEdit() {
	a := d.selected()
	if a == nil {
		return
	}
	d.editing, d.notice = a.Name, ""
	d.input = newSteadyInput("> ", "provider/model, comma-separated patterns")
	d.input.SetValue(d.override[a.Name])
	d.input.CursorEnd()
}

// editKey handles a key while an override is edited: Enter saves it (an
// empty one removes it), Esc leaves it as it was.
func (d *agentDash) editKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		d.editing = ""
		return nil
	case "enter":
		name, value := d.editing, strings.TrimSpace(d.input.Value())
		d.editing = ""
		o := make(map[string]string, len(d.override)+1)
		for k, v := range d.override {
			o[k] = v
		}
		if value == "" {
			delete(o, name)
		} else {
			o[name] = value
		}
		d.override = o
		d.notice = "Updated model override for " + name
		return d.saveOverrides.save()
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(k)
	return cmd
}

// patterns splits an override or the definition's models into patterns.
func patterns(override string, a *task.Agent) []string {
	if strings.TrimSpace(override) == "" {
		return a.Models
	}
	var out []string
	for _, p := range strings.Split(override, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// resolution says which model patterns pick.
func (d *agentDash) resolution(th theme, ps []string) string {
	m, ok := d.resolve(ps)
	switch {
	case m == nil:
		return th.dim.Render("(unresolved)")
	case !ok && len(ps) > 0:
		return th.warn.Render(m.Provider + "/" + m.ID + " (no pattern usable: the session's model)")
	}
	return th.ok.Render(m.Provider + "/" + m.ID)
}

// joinPatterns writes patterns for the details.
func joinPatterns(ps []string) string {
	if len(ps) == 0 {
		return "(session model)"
	}
	return strings.Join(ps, ", ")
}

// view draws the centre.
func (d *agentDash) view(th theme, width, height int) string {
	f := dashFrame{title: "Agent Control Center", tabs: d.tabs, active: d.active, notice: d.notice,
		hint: "↑/↓ j/k: move  Space: toggle  Enter: model override  N: new agent  Tab: source  Ctrl+R: reload  type: search  Esc: close"}
	switch {
	case d.loading:
		f.body = []string{th.dim.Render("Loading agents…")}
	case d.create != nil:
		f.body, f.hint = d.createLines(th, width)
	case d.editing != "":
		f.hint = "Enter: save  Esc: cancel"
		f.body = d.editLines(th, width)
	default:
		f.columns = func(lines, lw, rw int) ([]string, []string) {
			return d.listLines(th, lines), d.inspector(th, rw)
		}
	}
	return f.render(th, width, height)
}

// editLines draws the override editor.
func (d *agentDash) editLines(th theme, width int) []string {
	var a *task.Agent
	for _, x := range d.agents {
		if x.Name == d.editing {
			a = x
		}
	}
	d.input.SetWidth(max(10, width-4))
	out := []string{th.accent.Render("Model override: " + clean(d.editing)), th.dim.Render("Enter model patterns (empty clears the override)"), d.input.View()}
	if a != nil {
		out = append(out, th.dim.Render("Default pattern: ")+clean(joinPatterns(a.Models)),
			th.dim.Render("Default resolves: ")+d.resolution(th, a.Models),
			th.dim.Render("Preview effective: ")+d.resolution(th, patterns(d.input.Value(), a)))
	}
	if s := d.suggest(d.input.Value()); len(s) > 0 {
		out = append(out, th.dim.Render("Suggestions:"))
		for _, x := range s {
			out = append(out, th.dim.Render("  "+x))
		}
	}
	return out
}

// listLines draws the search field and the agents that fit in lines.
func (d *agentDash) listLines(th theme, lines int) []string {
	out := []string{searchLine(th, d.query), ""}
	shown := d.shown()
	if len(shown) == 0 {
		out = append(out, th.dim.Render("  No agents found."))
	}
	visible := max(1, lines-2)
	if len(shown) > visible {
		visible = max(1, visible-1)
	}
	if d.cursor < d.scroll {
		d.scroll = d.cursor
	}
	if d.cursor >= d.scroll+visible {
		d.scroll = d.cursor - visible + 1
	}
	d.scroll = max(0, min(d.scroll, len(shown)-visible))
	for i := d.scroll; i < len(shown) && i < d.scroll+visible; i++ {
		a := shown[i]
		off := slices.Contains(d.disabled, a.Name)
		mark := markOn
		if off {
			mark = markOff
		}
		line := " " + mark + " " + clean(a.Name) + " [" + sourceLabel(a.Source) + "]"
		if d.override[a.Name] != "" {
			line += " (override)"
		}
		switch {
		case i == d.cursor:
			line = th.selected.Render(line)
		case off:
			line = th.dim.Render(line)
		}
		out = append(out, line)
	}
	if len(shown) > visible {
		out = append(out, th.dim.Render("  ("+itoa(d.cursor+1)+"/"+itoa(len(shown))+")"))
	}
	for _, p := range d.problems {
		out = append(out, th.warn.Render(clean(p)))
	}
	return out
}

// inspector draws the selected agent's details.
func (d *agentDash) inspector(th theme, width int) []string {
	a := d.selected()
	if a == nil {
		return []string{th.dim.Render("Select an agent"), th.dim.Render("to inspect settings")}
	}
	state := th.ok.Render(markOn + " Enabled")
	if slices.Contains(d.disabled, a.Name) {
		state = th.dim.Render(markOff + " Disabled")
	}
	over := d.override[a.Name]
	overText := th.dim.Render("(none)")
	if over != "" {
		overText = th.warn.Render(clean(over))
	}
	out := []string{th.accent.Render(clean(a.Name)), "",
		th.dim.Render("Status: ") + state,
		th.dim.Render("Source: ") + sourceLabel(a.Source), "",
		th.dim.Render("Default pattern: ") + clean(joinPatterns(a.Models)),
		th.dim.Render("Default resolves: ") + d.resolution(th, a.Models),
		th.dim.Render("Override: ") + overText,
		th.dim.Render("Effective pattern: ") + clean(joinPatterns(patterns(over, a))),
		th.dim.Render("Effective: ") + d.resolution(th, patterns(over, a)),
	}
	tools := "all"
	if a.Tools != nil {
		tools = strings.Join(a.Tools, ", ")
	}
	out = append(out, th.dim.Render("Tools: ")+clean(tools))
	if a.Thinking != "" {
		out = append(out, th.dim.Render("Thinking: ")+string(a.Thinking))
	}
	if a.Path != "" {
		out = append(out, "", th.dim.Render("Path:"), th.dim.Render("  "+tailPath(clean(a.Path), width-2)))
	}
	if desc := wrapLines(a.Description, width-2); len(desc) > 0 {
		out = append(out, "", th.dim.Render("Description:"))
		out = append(out, desc...)
	}
	return out
}
