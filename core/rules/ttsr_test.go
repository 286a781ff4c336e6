package rules

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func ttsrOn(mode string) config.TTSR {
	return config.TTSR{Enabled: true, ContextMode: "discard", InterruptMode: mode, RepeatMode: "once", RepeatGap: 2}
}

func feed(w *Watcher, kind, tool string, idx int, parts ...string) *Match {
	for _, p := range parts {
		if m := w.Observe(Delta{Kind: kind, Tool: tool, Index: idx, Text: p}); m != nil {
			return m
		}
	}
	return nil
}

func TestWatcherMatchesAcrossDeltas(t *testing.T) {
	r := &Rule{Name: "nolog", Condition: []string{`console\.log\(`}}
	w, warns := NewWatcher([]*Rule{r}, ttsrOn(InterruptAlways))
	if len(warns) != 0 {
		t.Fatal(warns)
	}
	w.BeginResponse()
	m := feed(w, KindText, "", 0, "I will add ", "cons", "ole.lo", "g(x) here")
	if m == nil || !m.Interrupt || strings.Join(m.Names(), ",") != "nolog" {
		t.Fatalf("match = %+v", m)
	}
	// once: never again.
	w.BeginResponse()
	if m := feed(w, KindText, "", 0, "console.log(y)"); m != nil {
		t.Errorf("fired twice in once mode: %+v", m)
	}
}

func TestWatcherInterruptModes(t *testing.T) {
	cases := []struct {
		mode, kind string
		interrupt  bool
	}{
		{InterruptAlways, KindText, true},
		{InterruptAlways, KindTool, true},
		{InterruptProseOnly, KindText, true},
		{InterruptProseOnly, KindThinking, true},
		{InterruptProseOnly, KindTool, false},
		{InterruptToolOnly, KindTool, true},
		{InterruptToolOnly, KindText, false},
		{InterruptNever, KindText, false},
		{InterruptNever, KindTool, false},
	}
	for _, c := range cases {
		// The rule's own mode overrides the setting.
		r := &Rule{Name: "r", Condition: []string{"danger"}, InterruptMode: c.mode}
		w, _ := NewWatcher([]*Rule{r}, ttsrOn(InterruptAlways))
		w.BeginResponse()
		m := feed(w, c.kind, "bash", 1, `{"command":"dan`, `ger"}`)
		if got := m != nil; got != c.interrupt {
			t.Errorf("%s/%s: interrupt = %v, want %v", c.mode, c.kind, got, c.interrupt)
		}
		later := w.EndTurn()
		if !c.interrupt && (len(later) != 1 || later[0].Name != "r") {
			t.Errorf("%s/%s: deferred = %v, want the rule after the turn", c.mode, c.kind, later)
		}
		if c.interrupt && len(later) != 0 {
			t.Errorf("%s/%s: deferred %v after an interrupt", c.mode, c.kind, later)
		}
	}
}

func TestWatcherScopesAndGlobs(t *testing.T) {
	ts := &Rule{Name: "ts", Condition: []string{"*.ts"}} // glob: edits/writes of .ts files
	think := &Rule{Name: "think", Condition: []string{"x"}, Scope: []string{"thinking"}}
	bashOnly := &Rule{Name: "rm", Condition: []string{`rm -rf`}, Scope: []string{"tool:bash"}}
	w, warns := NewWatcher([]*Rule{ts, think, bashOnly}, ttsrOn(InterruptAlways))
	if len(warns) != 0 {
		t.Fatal(warns)
	}
	w.BeginResponse()
	if m := feed(w, KindTool, "read", 0, `{"path":"src/a.ts"}`); m != nil {
		t.Errorf("read of a .ts file matched %v", m.Names())
	}
	if m := feed(w, KindText, "", 1, "x rm -rf"); m != nil {
		t.Errorf("text matched scoped rules %v", m.Names())
	}
	if m := feed(w, KindTool, "edit", 2, `{"path":"src/a.go"}`); m != nil {
		t.Errorf("edit of a .go file matched %v", m.Names())
	}
	if m := feed(w, KindTool, "edit", 3, `{"pa`, `th":"src/deep/a.ts","edits":[]}`); m == nil || m.Names()[0] != "ts" {
		t.Errorf("edit of a .ts file: %+v", m)
	}
	if m := feed(w, KindThinking, "", 4, "xyz"); m == nil || m.Names()[0] != "think" {
		t.Errorf("thinking: %+v", m)
	}
	if m := feed(w, KindTool, "bash", 5, `{"command":"rm -rf /tmp/x"}`); m == nil || m.Names()[0] != "rm" {
		t.Errorf("bash: %+v", m)
	}
}

func TestWatcherRepeatAfterGap(t *testing.T) {
	r := &Rule{Name: "r", Condition: []string{"bad"}}
	st := ttsrOn(InterruptAlways)
	st.RepeatMode = "after-gap"
	w, _ := NewWatcher([]*Rule{r}, st)
	w.Restore([]string{"r"}) // injected in an earlier part of the session
	w.BeginResponse()
	if feed(w, KindText, "", 0, "bad") != nil {
		t.Fatal("fired right after a restore")
	}
	w.EndTurn()
	w.EndTurn()
	w.BeginResponse()
	if feed(w, KindText, "", 0, "bad") == nil {
		t.Fatal("did not fire again after the gap")
	}
}

func TestWatcherBadConditionWarns(t *testing.T) {
	w, warns := NewWatcher([]*Rule{{Name: "b", Path: "/r/b.md", Condition: []string{"(unclosed"}}}, ttsrOn(InterruptAlways))
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), "/r/b.md") || w.Len() != 0 {
		t.Errorf("warns = %v, rules = %d", warns, w.Len())
	}
	off := ttsrOn(InterruptAlways)
	off.Enabled = false
	w, _ = NewWatcher([]*Rule{{Name: "r", Condition: []string{"a"}}}, off)
	if feed(w, KindText, "", 0, "a") != nil {
		t.Error("ttsr.enabled false still matched")
	}
}

func TestInjectionText(t *testing.T) {
	got := InjectionText([]*Rule{{Name: "nolog", Path: "/p/nolog.md", Content: "No console.log."}}, true)
	if !strings.Contains(got, `<rule name="nolog" path="/p/nolog.md">`) || !strings.Contains(got, "No console.log.") || !strings.Contains(got, "stopped") {
		t.Errorf("text:\n%s", got)
	}
}

func TestWatcherReset(t *testing.T) {
	a, b := &Rule{Name: "a", Condition: []string{"aaa"}}, &Rule{Name: "b", Condition: []string{"bbb"}}
	w, _ := NewWatcher([]*Rule{a, b}, ttsrOn(InterruptAlways))
	w.BeginResponse()
	if feed(w, KindText, "", 0, "aaa") == nil {
		t.Fatal("a did not fire")
	}
	// Another session path on which only b fired: a may fire again, b not.
	w.Reset([]string{"b"})
	w.BeginResponse()
	if m := feed(w, KindText, "", 0, "bbb aaa"); m == nil || strings.Join(m.Names(), ",") != "a" {
		t.Errorf("after Reset: %+v", m)
	}
}
