package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// The /model picker asks what a chosen model is for, as omp's does: a
// role, then a thinking level. The default role switches the session and
// is saved with its level; another role is only saved; the list comes
// back with the badges, and Esc steps back one level at a time.
func TestModelPickerSetsRoles(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	config := func() string {
		b, _ := os.ReadFile(filepath.Join(r.s.Config().AgentDir, "config.yml"))
		return string(b)
	}
	r.typeAndSend("/model")
	r.key("down")
	r.key("enter")
	v := r.view()
	for _, want := range []string{"Action for: mock/other-model", "Set as DEFAULT (Default)", "Set as SMOL (Fast)", "Set as SLOW (Thinking)", "Set as PLAN (Architect)", "Set as TASK (Subtask)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the role menu lacks %q:\n%s", want, v)
		}
	}
	r.key("enter")
	v = r.view()
	for _, want := range []string{"Thinking for: Default (other-model)", "inherit", "off", "min", "xhigh"} {
		if !strings.Contains(v, want) {
			t.Errorf("the thinking menu lacks %q:\n%s", want, v)
		}
	}
	for range 5 {
		r.key("down")
	}
	r.key("enter") // high
	r.until("the default saved", func() bool { return strings.Contains(config(), "default: mock/other-model:high") })
	r.settle()
	if md := r.s.Agent().Model(); md == nil || md.ID != "other-model" || r.s.Agent().Thinking() != ai.ThinkingHigh {
		t.Errorf("the session has %v at %s", md, r.s.Agent().Thinking())
	}
	if r.m.picker == nil || r.m.picker.title != "Model" || !strings.Contains(r.view(), "[DEFAULT] (high)") {
		t.Fatalf("the list did not come back with the badge:\n%s", r.view())
	}

	r.key("up")
	r.key("enter")
	r.key("down")
	r.key("enter") // smol
	if !strings.Contains(r.view(), "Thinking for: Fast (mock-model)") || strings.Contains(r.view(), "xhigh") {
		t.Fatalf("a model without reasoning offers levels:\n%s", r.view())
	}
	r.key("enter") // inherit
	r.until("the smol role saved", func() bool { return strings.Contains(config(), "smol: mock/mock-model\n") })
	if md := r.s.Agent().Model(); md == nil || md.ID != "other-model" {
		t.Errorf("setting the smol role switched the session to %v", md)
	}
	if !strings.Contains(r.view(), "[SMOL] (inherit)") {
		t.Errorf("no smol badge:\n%s", r.view())
	}

	r.key("enter")
	r.key("enter")
	r.key("esc")
	if !strings.Contains(r.view(), "Action for: mock/mock-model") {
		t.Fatalf("esc in the thinking menu did not go back to the roles:\n%s", r.view())
	}
	r.key("esc")
	if r.m.picker == nil || r.m.picker.title != "Model" {
		t.Fatalf("esc in the roles did not go back to the list:\n%s", r.view())
	}
	r.key("esc")
	if r.m.picker != nil {
		t.Fatalf("esc did not close the list:\n%s", r.view())
	}
}
