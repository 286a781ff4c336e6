package tui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// The Agent Control Center's N: describe an agent, the current model
// writes its definition (task.GenerationPrompt), you review it and Enter
// saves it as <name>.md in the project's .gopi/agents or the user's
// <agent dir>/agents (Tab switches), as omp's control centre does.

// agentCreate is the N flow in progress.
type agentCreate struct {
	input       textinput.Model
	description string
	scope       string // "project" or "user"
	generating  bool
	cancel      func() // stops the generation in flight
	spec        *task.GeneratedAgent
	err         string
}

// dashMsg is the end of a control centre's command: apply runs in
// Update when the centre is still open.
type dashMsg struct {
	d     dashboard
	apply func() tea.Cmd
}

// beginCreate opens the description field.
func (d *agentDash) beginCreate() {
	c := &agentCreate{scope: "project", input: newSteadyInput("> ", "what the agent should do")}
	d.create, d.notice = c, ""
}

// closeCreate ends the flow, stopping a generation in flight.
func (d *agentDash) closeCreate() {
	if d.create != nil && d.create.cancel != nil {
		d.create.cancel()
	}
	d.create = nil
}

// createKey handles a key of the flow: in the description, Enter asks
// the model and Tab switches the scope; while it writes, only Ctrl+C (the
// centre's) counts; in the review, Enter saves, R asks again, Tab
// switches the scope; Esc leaves the flow.
func (d *agentDash) createKey(k tea.KeyPressMsg) tea.Cmd {
	c := d.create
	switch {
	case c.generating:
		return nil
	case k.String() == "esc":
		d.closeCreate()
		return nil
	case k.String() == "tab" || k.String() == "shift+tab":
		c.scope = map[string]string{"project": "user", "user": "project"}[c.scope]
		return nil
	case c.spec != nil:
		switch k.String() {
		case "enter":
			return d.saveCreated()
		case "r", "R":
			return d.generate()
		}
		return nil
	case k.String() == "enter":
		c.description = strings.TrimSpace(c.input.Value())
		return d.generate()
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(k)
	return cmd
}

// generate asks the model for the definition.
func (d *agentDash) generate() tea.Cmd {
	c := d.create
	if c.description == "" {
		c.err = "Describe the agent first."
		return nil
	}
	ctx, cancel := context.WithCancel(d.ctx)
	c.generating, c.cancel, c.err, c.spec = true, cancel, "", nil
	gen, desc := d.generateText, c.description
	return func() tea.Msg {
		answer, err := gen(ctx, task.GenerationPrompt, task.GenerationRequest(desc))
		cancel()
		var spec task.GeneratedAgent
		if err == nil {
			spec, err = task.ParseGenerated(answer)
		}
		return dashMsg{d: d, apply: func() tea.Cmd {
			if d.create != c {
				return nil
			}
			c.generating, c.cancel = false, nil
			if err != nil {
				c.err = err.Error()
				return nil
			}
			c.spec = &spec
			return nil
		}}
	}
}

// scopeDir is where a scope's agent files go.
func (d *agentDash) scopeDir(scope string) string {
	if scope == "user" {
		return filepath.Join(d.cfg.AgentDir, "agents")
	}
	return filepath.Join(d.cfg.ProjectDir, "agents")
}

// saveCreated writes the reviewed definition; an existing file of its
// name is left alone.
func (d *agentDash) saveCreated() tea.Cmd {
	c := d.create
	spec, dir := *c.spec, d.scopeDir(c.scope)
	return func() tea.Msg {
		path := filepath.Join(dir, spec.Name+".md")
		_, err := os.Lstat(path)
		switch {
		case err == nil:
			err = errors.New("Agent file already exists: " + path + "; remove it or press R for another name")
		case errors.Is(err, fs.ErrNotExist):
			err = os.MkdirAll(dir, 0o755)
			if err == nil {
				err = atomicfile.WriteFile(path, spec.File(), 0o644)
			}
		}
		return dashMsg{d: d, apply: func() tea.Cmd {
			if d.create != c {
				return nil
			}
			if err != nil {
				c.err = err.Error()
				return nil
			}
			d.create = nil
			d.notice = "Created agent " + spec.Name + " at " + shortPath(path)
			return d.reload()
		}}
	}
}

// createLines draws the flow.
func (d *agentDash) createLines(th theme, width int) (lines []string, hint string) {
	c := d.create
	if c.spec != nil {
		s := c.spec
		lines = []string{th.accent.Render("Review Generated Agent"), th.dim.Render("Identifier: ") + clean(s.Name), th.dim.Render("Scope: ") + c.scope + th.dim.Render(" → "+shortPath(d.scopeDir(c.scope))), th.dim.Render("whenToUse:")}
		lines = append(lines, headLines(strings.Join(wrapLines(s.Description, width-2), "\n"), 6)...)
		lines = append(lines, th.dim.Render("systemPrompt:"))
		for _, l := range headLines(strings.Join(wrapLines(s.Prompt, width-4), "\n"), 8) {
			lines = append(lines, "  "+l)
		}
		hint = "Enter: save  Tab: scope  R: ask again  Esc: cancel"
	} else {
		c.input.SetWidth(max(10, width-4))
		lines = []string{th.accent.Render("Create New Agent"), th.dim.Render("Describe what the new agent should do:"), c.input.View(),
			th.dim.Render("Scope: ") + c.scope + th.dim.Render(" → "+shortPath(d.scopeDir(c.scope)))}
		hint = "Enter: generate  Tab: scope  Esc: cancel"
		if c.generating {
			lines = append(lines, th.accent.Render("The model is writing the agent…"))
			hint = "Ctrl+C: close"
		}
	}
	if c.err != "" {
		lines = append(lines, th.err.Render(clean(c.err)))
	}
	return lines, hint
}
