package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

	// A setting with a list opens it, the current value marked; Enter
	// writes the highlighted one, Esc goes back without a change.
	r.key("down")
	r.key("enter")
	v := r.view()
	for _, want := range []string{"Completion rows", "How many entries", "❯ • 5 items", "20 items", "enter choose · esc back"} {
		if !strings.Contains(v, want) {
			t.Errorf("the list of Completion rows lacks %q:\n%s", want, v)
		}
	}
	r.key("down")
	r.key("enter")
	waitSaved(r)
	if v := r.view(); !strings.Contains(v, "❯ Completion rows") || !strings.Contains(v, "7 items") || !strings.Contains(v, "Completion rows: 7 items (saved") {
		t.Fatalf("after choosing 7 items:\n%s", v)
	}
	if got := r.s.Config().Settings.Int("autocompleteMaxVisible"); got != 7 {
		t.Errorf("autocompleteMaxVisible %d, want 7", got)
	}
	r.key("shift+tab")
	r.key("enter") // Thinking level
	if v := r.view(); !strings.Contains(v, "❯ • high") || !strings.Contains(v, "xhigh") || !strings.Contains(v, "min ") {
		t.Fatalf("the list of thinking levels:\n%s", v)
	}
	r.key("up")
	r.key("esc")
	if v := r.view(); !strings.Contains(v, "❯ Thinking level") || r.m.dash.(*settingsDash).sub != nil {
		t.Fatalf("esc did not go back to the list:\n%s", v)
	}
	if _, ok := r.m.dash.(*settingsDash).pending["defaultThinkingLevel"]; ok {
		t.Error("esc in a list changed the setting")
	}

	// A string setting opens a text field; an empty field unsets it.
	for !strings.Contains(r.view(), "Web search provider") {
		r.key("tab")
	}
	r.key("down")
	r.key("down")
	r.key("enter")
	if v := r.view(); !strings.Contains(v, "SearXNG endpoint") || !strings.Contains(v, "an empty field unsets it") {
		t.Fatalf("no text field for the SearXNG endpoint:\n%s", v)
	}
	r.key("http://127.0.0.1:9")
	r.key("enter")
	waitSaved(r)
	if got := r.s.Config().Settings.String("searxng.endpoint"); got != "http://127.0.0.1:9" {
		t.Fatalf("searxng.endpoint %q:\n%s", got, r.view())
	}
	r.key("enter")
	for range len("http://127.0.0.1:9") {
		r.update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	r.key("enter")
	waitSaved(r)
	if got := r.s.Config().Settings.String("searxng.endpoint"); got != "" {
		t.Errorf("an empty field left searxng.endpoint %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(r.s.Config().AgentDir, "config.yml")); strings.Contains(string(b), "endpoint") || !strings.Contains(string(b), "autocompleteMaxVisible: 7") {
		t.Errorf("config.yml:\n%s", b)
	}
	r.key("esc")
	if r.m.dash != nil {
		t.Fatal("esc did not close the editor")
	}
}

// The settings editor at 80×24 and at a narrow width, and a setting's
// list of options, as goldens.
func TestSettingsEditorGolden(t *testing.T) {
	r := newRig(t)
	r.typeAndSend("/settings")
	r.key("tab")
	r.key("down")
	for _, size := range [][2]int{{80, 24}, {44, 20}} {
		got := ansi.Strip(r.m.dash.view(r.m.th, size[0], size[1]))
		golden.Check(t, filepath.Join("testdata", "settings", "model-tab-"+itoa(size[0])+"x"+itoa(size[1])+".txt"), got+"\n")
	}
	r.key("enter")
	got := ansi.Strip(r.m.dash.view(r.m.th, 80, 24))
	golden.Check(t, filepath.Join("testdata", "settings", "service-tier-list-80x24.txt"), got+"\n")
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
// an enum, a list of options whose values are of the setting's kind (an
// enum's values among its allowed ones), or a string.
func TestSettingTabsAreKnownSettings(t *testing.T) {
	for _, tab := range settingTabs {
		for _, e := range tab.entries {
			def, ok := config.Lookup(e.key)
			if !ok {
				t.Errorf("%s: %s is not a known setting", tab.label, e.key)
				continue
			}
			_, cycles := nextValue(def, def.Default)
			if !cycles && e.options == nil && def.Kind != config.KindString {
				t.Errorf("%s: %s (%s) cannot be changed in the editor", tab.label, e.key, def.Kind)
			}
			for _, o := range e.options {
				switch v := o.value.(type) {
				case string:
					if def.Kind == config.KindEnum && !slices.Contains(def.Values, v) || def.Kind != config.KindEnum && def.Kind != config.KindString {
						t.Errorf("%s: option %q is not a value of %s", e.key, v, def.Kind)
					}
				case float64:
					if def.Kind != config.KindNumber {
						t.Errorf("%s: option %v is a number, the setting is %s", e.key, v, def.Kind)
					}
				default:
					t.Errorf("%s: option %v (%T)", e.key, v, v)
				}
				if o.label == "" {
					t.Errorf("%s: option %v has no label", e.key, o.value)
				}
			}
			if e.label == "" || e.desc == "" {
				t.Errorf("%s: %s lacks a label or a description", tab.label, e.key)
			}
		}
	}
}
