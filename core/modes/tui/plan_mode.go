package tui

import (
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
)

// planEditorMsg reports the end of the external editor opened on the plan.
type planEditorMsg struct {
	file string
	err  error
}

// cmdPlan toggles plan mode (/plan [prompt]). Entering it switches to the
// plan role's model and, with a prompt, sends it; leaving it asks first,
// since no plan is approved that way, and pauses plan mode.
func (m *model) cmdPlan(args string) tea.Cmd {
	p := m.s.Plan()
	if p.State().Enabled {
		ctx, ui := m.ctx, m.ui
		exit := func() tea.Msg {
			if err := p.Exit(true); err != nil {
				return errMsg{err}
			}
			return noticeMsg{"Plan mode paused."}
		}
		if ui == nil {
			return exit
		}
		return func() tea.Msg {
			yes, err := ui.Confirm(ctx, "Exit plan mode?", "This exits plan mode without approving a plan.", 0)
			if err != nil || !yes {
				return nil
			}
			return exit()
		}
	}
	if !p.Allowed() {
		return m.printSection(m.r.warning(agentsession.ErrPlanDisabled.Error()))
	}
	// Entering emits an event, which the program receives: not from
	// inside Update.
	return func() tea.Msg {
		warning, err := p.Enter()
		return planEnteredMsg{warning: warning, err: err, prompt: args}
	}
}

// planEnteredMsg reports that plan mode was entered (or why not); prompt
// is the text /plan was given, sent next.
type planEnteredMsg struct {
	warning, prompt string
	err             error
}

// onPlanEntered shows plan mode's start and sends /plan's prompt.
func (m *model) onPlanEntered(msg planEnteredMsg) tea.Cmd {
	if msg.err != nil {
		return m.printSection(m.r.errorLine(msg.err.Error()))
	}
	blocks := []string{m.r.notice("Plan mode enabled. Plan file: " + agentsession.PlanFile)}
	if msg.warning != "" {
		blocks = append(blocks, m.r.warning(msg.warning))
	}
	cmds := []tea.Cmd{m.printSection(blocks...), m.refreshStatus()}
	if msg.prompt != "" {
		cmds = append(cmds, m.prompt(msg.prompt))
	}
	return tea.Batch(cmds...)
}

// restorePlanMode enters plan mode again when the resumed session was
// planning (its last mode change is "plan"), as omp does; a session left
// with plan mode paused shows it paused.
func (m *model) restorePlanMode() tea.Cmd {
	p := m.s.Plan()
	return func() tea.Msg {
		if restored, warning, err := p.Restore(); restored {
			return planEnteredMsg{warning: warning, err: err}
		}
		return nil
	}
}

// onPlanEvent shows plan mode's changes: the footer's marker and the plan
// under review.
func (m *model) onPlanEvent(e any) tea.Cmd {
	switch e := e.(type) {
	case agentsession.PlanModeChanged:
		m.plan = e.PlanState
		if r := m.planReview; r != nil && !e.Enabled && !e.Paused {
			// Only an approval ends plan mode without pausing it.
			m.planReview = nil
			return tea.Batch(m.printSection(m.r.marker("plan approved: executing "+r.FinalPlanFilePath)), m.refreshStatus())
		}
		return m.refreshStatus()
	case agentsession.PlanReview:
		m.planReview = &e
		return m.printSection(m.planPreview(e.Content))
	}
	return nil
}

// planPreview draws the plan under review.
func (m *model) planPreview(content string) string {
	rule := m.th.dim.Render(strings.Repeat("─", max(10, min(m.width-1, 200))))
	return rule + "\n" + m.th.title.Render("Plan Review") + "\n\n" + m.r.markdown(content) + "\n" + rule
}

// planFooter is the footer's plan mode marker ("" outside plan mode).
func (m *model) planFooter() string {
	switch {
	case m.plan.Enabled:
		return "plan mode"
	case m.plan.Paused:
		return "plan mode paused"
	}
	return ""
}

// isPlanReview reports whether the open dialog asks about a plan.
func (m *model) isPlanReview() bool { return m.dialog != nil && m.isPlanReviewMsg(m.dialog.msg) }

// isPlanReviewMsg reports whether dialog d asks about a plan.
func (m *model) isPlanReviewMsg(d dialogMsg) bool {
	return m.planReview != nil && d.kind == dialogSelect && d.title == agentsession.PlanReviewTitle
}

// planReviewHint is the plan question's key help.
func (m *model) planReviewHint() string {
	if m.opts.Editor == "" {
		return "set $VISUAL or $EDITOR to edit the plan with ctrl+g"
	}
	return "ctrl+g open in editor"
}

// planReviewKey handles ctrl+g while the plan question is open: the plan
// opens in the user's editor ($VISUAL, $EDITOR), and when it closes the
// preview shows the plan again. ok is false for other keys.
func (m *model) planReviewKey(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if k.String() != "ctrl+g" || !m.isPlanReview() {
		return nil, false
	}
	if m.opts.Editor == "" {
		m.setNotice("No editor configured. Set $VISUAL or $EDITOR environment variable.")
		return nil, true
	}
	file := m.planReview.File
	c := exec.Command("/bin/sh", "-c", m.opts.Editor+` "$1"`, "sh", file)
	return tea.ExecProcess(c, func(err error) tea.Msg { return planEditorMsg{file: file, err: err} }), true
}

// onPlanEditor shows the plan the user edited.
func (m *model) onPlanEditor(msg planEditorMsg) tea.Cmd {
	if msg.err != nil {
		return m.printSection(m.r.warning("Failed to open external editor: " + msg.err.Error()))
	}
	b, err := os.ReadFile(msg.file)
	if err != nil {
		return m.printSection(m.r.errorLine("Plan file not found at " + msg.file))
	}
	m.setNotice("Plan updated in external editor.")
	return m.printSection(m.planPreview(string(b)))
}
