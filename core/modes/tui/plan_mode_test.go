package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// /plan toggles plan mode: on, the plan model and the footer marker; off,
// after a confirmation, paused with the model from before.
func TestPlanCommand(t *testing.T) {
	t.Parallel()
	r := newRigWith(t, "modelRoles:\n  plan: mock/other-model\n")
	r.m.ui = &dialogUI{send: func(msg tea.Msg) { r.msgs <- msg }}
	r.typeAndSend("/plan")
	r.until("the notice", func() bool { return r.printedHas("Plan mode enabled") })
	if !r.printedHas("Plan mode enabled. Plan file: local://PLAN.md") {
		t.Fatalf("no notice:\n%s", r.transcript())
	}
	r.until("the footer's marker", func() bool { return strings.Contains(r.view(), "plan mode") })
	if m := r.s.Agent().Model(); m.ID != "other-model" {
		t.Fatalf("model %s while planning", m.ID)
	}
	r.typeAndSend("/plan")
	r.until("the question", func() bool { return r.m.picker != nil && r.m.dialog != nil })
	if !strings.Contains(r.view(), "Exit plan mode?") {
		t.Fatalf("question:\n%s", r.view())
	}
	r.key("enter") // Yes
	r.until("plan mode paused", func() bool { return strings.Contains(r.view(), "plan mode paused") })
	if m := r.s.Agent().Model(); m.ID != "mock-model" {
		t.Fatalf("model %s after planning", m.ID)
	}
}

// With plan.enabled off, /plan says how to turn it on.
func TestPlanCommandDisabled(t *testing.T) {
	t.Parallel()
	r := newRigWith(t, "plan:\n  enabled: false\n")
	r.typeAndSend("/plan")
	r.settle()
	if !r.printedHas("Plan mode is disabled. Enable it in settings (plan.enabled).") {
		t.Fatalf("transcript:\n%s", r.transcript())
	}
}
