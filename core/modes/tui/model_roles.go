package tui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
)

// The /model picker works as omp's: Enter on a model asks what to do
// with it (set it as the model of a role: default, smol, slow, …), then
// at which thinking level ("inherit" keeps the level out of the saved
// value). The choice lands in config.yml as modelRoles.<role> =
// provider/id[:level]; the default role also switches this session's
// model (and its thinking level unless inherited). The list comes back
// afterwards with the role badges updated, so several roles can be set
// in one visit; Esc steps back a level.

// modelRole is one role the picker offers.
type modelRole struct {
	id, tag, name string
}

// builtinRoles are omp's roles, in its order; a role configured in
// modelRoles under another name is offered after them.
var builtinRoles = []modelRole{
	{"default", "DEFAULT", "Default"},
	{"smol", "SMOL", "Fast"},
	{"slow", "SLOW", "Thinking"},
	{"vision", "VISION", "Vision"},
	{"plan", "PLAN", "Architect"},
	{"designer", "DESIGNER", "Designer"},
	{"commit", "COMMIT", "Commit"},
	{"task", "TASK", "Subtask"},
}

// roleChoice is a role's model and thinking level ("" inherits).
type roleChoice struct {
	ref   string // provider/id, or the pattern configured
	level ai.ThinkingLevel
}

// modelRoles lists the roles to offer: the built-in ones, then the others
// modelRoles names.
func (m *model) modelRoles() []modelRole {
	roles := slices.Clone(builtinRoles)
	for _, id := range slices.Sorted(maps.Keys(m.roleChoices(nil))) {
		if !slices.ContainsFunc(roles, func(r modelRole) bool { return r.id == id }) {
			roles = append(roles, modelRole{id: id, name: id})
		}
	}
	return roles
}

// roleChoices reads modelRoles, with the choices made in this visit of the
// picker laid over it (their writes may still be running).
func (m *model) roleChoices(made map[string]roleChoice) map[string]roleChoice {
	out := map[string]roleChoice{}
	if cfg := m.s.Config(); cfg != nil && cfg.Settings != nil {
		for role, v := range cfg.Settings.ModelRoles() {
			q, l, _ := models.ParseModelArg(v)
			out[role] = roleChoice{ref: q, level: l}
		}
	}
	maps.Copy(out, made)
	return out
}

// thinkingLabel names a level as omp's picker does.
func thinkingLabel(l ai.ThinkingLevel) string {
	switch l {
	case "":
		return "inherit"
	case ai.ThinkingMinimal:
		return "min"
	}
	return string(l)
}

// roleBadges are the roles md holds, as "DEFAULT (high)" tags.
func roleBadges(md *ai.Model, roles []modelRole, choices map[string]roleChoice) string {
	ref := md.Provider + "/" + md.ID
	var tags []string
	for _, r := range roles {
		c, ok := choices[r.id]
		if !ok || (c.ref != ref && c.ref != md.ID) {
			continue
		}
		tag := r.tag
		if tag == "" {
			tag = strings.ToUpper(r.name)
		}
		tags = append(tags, "["+tag+"] ("+thinkingLabel(c.level)+")")
	}
	return strings.Join(tags, " ")
}

// modelPicker is the /model list, the cursor on focus (nil: the current
// model); made holds the roles chosen in this visit.
func (m *model) modelPicker(avail []*ai.Model, focus *ai.Model, made map[string]roleChoice) *picker {
	cur := m.s.Agent().Model()
	if focus == nil {
		focus = cur
	}
	roles, choices := m.modelRoles(), m.roleChoices(made)
	var items []pickItem
	at := 0
	for _, md := range avail {
		label := md.Provider + "/" + md.ID
		if md.Name != "" && md.Name != md.ID {
			label += "  " + m.th.dim.Render(md.Name)
		}
		if b := roleBadges(md, roles, choices); b != "" {
			label += "  " + m.th.accent.Render(b)
		}
		if md == focus {
			at = len(items)
		}
		items = append(items, pickItem{label: label, search: md.Provider + "/" + md.ID + " " + md.Name, value: md, active: md == cur})
	}
	p := &picker{title: "Model", items: items, cursor: at, hint: "enter: set a role"}
	p.onPick = func(it pickItem) tea.Cmd {
		m.picker = m.rolePicker(avail, it.value.(*ai.Model), made)
		return nil
	}
	return p
}

// rolePicker asks which role md takes; Esc goes back to the list.
func (m *model) rolePicker(avail []*ai.Model, md *ai.Model, made map[string]roleChoice) *picker {
	var items []pickItem
	for _, r := range m.modelRoles() {
		label := "Set as " + r.name
		if r.tag != "" {
			label = "Set as " + r.tag + " (" + r.name + ")"
		}
		items = append(items, pickItem{label: label, value: r})
	}
	back := func() { m.picker = m.modelPicker(avail, md, made) }
	p := &picker{title: "Action for: " + md.Provider + "/" + md.ID, items: items, hint: "enter: continue · esc: back", onCancel: back}
	p.onPick = func(it pickItem) tea.Cmd {
		m.picker = m.thinkingPicker(avail, md, it.value.(modelRole), made)
		return nil
	}
	return p
}

// thinkingPicker asks at which level md thinks in role r: inherit, off
// and the levels md supports, the role's current level preselected.
func (m *model) thinkingPicker(avail []*ai.Model, md *ai.Model, r modelRole, made map[string]roleChoice) *picker {
	levels := []ai.ThinkingLevel{"", ai.ThinkingOff}
	for _, l := range ai.ThinkingLevels[1:] {
		if models.ClampThinking(md, l) == l {
			levels = append(levels, l)
		}
	}
	cur := m.roleChoices(made)[r.id].level
	var items []pickItem
	at := 0
	for i, l := range levels {
		if l == cur {
			at = i
		}
		items = append(items, pickItem{label: thinkingLabel(l), value: l, active: l == cur})
	}
	back := func() { m.picker = m.rolePicker(avail, md, made) }
	p := &picker{title: "Thinking for: " + r.name + " (" + md.ID + ")", items: items, cursor: at, hint: "enter: confirm · esc: back", onCancel: back}
	p.onPick = func(it pickItem) tea.Cmd {
		level := it.value.(ai.ThinkingLevel)
		next := maps.Clone(made)
		if next == nil {
			next = map[string]roleChoice{}
		}
		next[r.id] = roleChoice{ref: md.Provider + "/" + md.ID, level: level}
		m.picker = m.modelPicker(avail, md, next)
		return m.setRole(r, md, level)
	}
	return p
}

// setRole saves md (at level; "" inherits) as the model of role r; the
// default role also switches the session to it.
func (m *model) setRole(r modelRole, md *ai.Model, level ai.ThinkingLevel) tea.Cmd {
	s := m.s
	ref := md.Provider + "/" + md.ID
	return func() tea.Msg {
		if r.id == "default" {
			if err := s.Model().SetDefault(md, level); err != nil {
				return errMsg{err}
			}
			return tea.BatchMsg{func() tea.Msg { return noticeMsg{"Default model: " + ref} }, m.refreshStatus()}
		}
		value := ref
		if level != "" {
			value += ":" + string(level)
		}
		if err := s.Config().Settings.Set("modelRoles."+r.id, value); err != nil {
			return errMsg{fmt.Errorf("the %s model was not saved: %w", r.name, err)}
		}
		return noticeMsg{r.name + " model: " + ref}
	}
}
