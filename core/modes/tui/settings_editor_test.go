package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/golden"
)

// /settings opens the tabbed editor: Tab moves between tabs, Enter toggles
// a boolean and cycles an enum; the values land in config.yml and the
// session's own settings change at once; Esc closes it.
func TestSettingsEditor(t *testing.T) {
	r := newRig(t)
	r.typeAndSend("/settings")
	if r.m.dash == nil || !strings.Contains(r.view(), "Appearance") {
		t.Fatalf("no settings editor:\n%s", r.view())
	}
	for !strings.Contains(r.view(), "❯ Steering mode") {
		r.key("tab")
	}
	r.key("enter") // one-at-a-time → all
	for i := 0; i < 4; i++ {
		r.key("down")
	}
	if !strings.Contains(r.view(), "❯ Quiet start") {
		t.Fatalf("the cursor is not on Quiet start:\n%s", r.view())
	}
	r.key("enter")
	waitSaved(r)
	if !strings.Contains(r.view(), "Quiet start: true (saved in config.yml)") {
		t.Fatalf("no notice:\n%s", r.view())
	}
	r.until("the session's steering mode", func() bool { return r.s.Agent().Modes().Steering == agent.AllAtOnce })
	b, err := os.ReadFile(filepath.Join(r.s.Config().AgentDir, "config.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "steeringMode: all") || !strings.Contains(string(b), "quiet: true") {
		t.Fatalf("config.yml:\n%s", b)
	}
	r.key("esc")
	if r.m.dash != nil {
		t.Fatal("esc did not close the editor")
	}
}

// The settings editor at 80×24 and at a narrow width, as goldens.
func TestSettingsEditorGolden(t *testing.T) {
	r := newRig(t)
	r.typeAndSend("/settings")
	r.key("tab")
	r.key("down")
	for _, size := range [][2]int{{80, 24}, {44, 20}} {
		got := ansi.Strip(r.m.dash.view(r.m.th, size[0], size[1]))
		golden.Check(t, filepath.Join("testdata", "settings", "model-tab-"+itoa(size[0])+"x"+itoa(size[1])+".txt"), got+"\n")
	}
}

// A setting a higher layer sets (a project file, a variable, a flag) stays
// as that layer has it; the editor says so instead of showing the value it
// wrote.
func TestSettingsEditorHigherLayerWins(t *testing.T) {
	r := newRig(t)
	if err := r.s.Config().Settings.Override("startup.quiet", false); err != nil {
		t.Fatal(err)
	}
	r.typeAndSend("/settings")
	for !strings.Contains(r.view(), "❯ Steering mode") {
		r.key("tab")
	}
	for i := 0; i < 4; i++ {
		r.key("down")
	}
	r.key("enter")
	waitSaved(r)
	if v := r.view(); !strings.Contains(v, "Quiet start") || !strings.Contains(v, "false  (config.yml says true;") {
		t.Fatalf("no word of the higher setting:\n%s", v)
	}
}

// waitSaved waits until the settings editor's writes are over.
func waitSaved(r *rig) {
	r.t.Helper()
	r.until("the settings to be written", func() bool {
		d, ok := r.m.dash.(*settingsDash)
		if !ok {
			return true
		}
		for _, sv := range d.savers {
			if sv.running {
				return false
			}
		}
		return true
	})
}

// Every entry of the editor is a known setting it can change: a switch,
// a list of values, or a number with choices.
func TestSettingTabsAreKnownSettings(t *testing.T) {
	for _, tab := range settingTabs {
		for _, e := range tab.entries {
			def, ok := config.Lookup(e.key)
			if !ok {
				t.Errorf("%s: %s is not a known setting", tab.label, e.key)
				continue
			}
			if _, ok := nextValue(def, e, def.Default); !ok {
				t.Errorf("%s: %s (%s) cannot be changed in the editor", tab.label, e.key, def.Kind)
			}
			if e.label == "" || e.desc == "" {
				t.Errorf("%s: %s lacks a label or a description", tab.label, e.key)
			}
		}
	}
}
