package browser

import (
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// /browser's switch: the session's Chromium, running in the other mode,
// is closed with its tabs (the next open starts it in the new mode);
// setting the mode it has already changes nothing; a tab in use makes
// the switch wait for its call instead of closing it under it.
func TestSetHeadlessClosesTheOtherMode(t *testing.T) {
	need(t)
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	t.Cleanup(func() { m.Close() })
	if n, err := m.SetHeadless(true); n != 0 || err != nil || !m.Headless() {
		t.Fatalf("same mode: %d tabs closed, %v, headless %v", n, err, m.Headless())
	}
	ok(t, m, map[string]any{"action": "open", "name": "a", "url": shared.srv.URL + "/article"})
	ok(t, m, map[string]any{"action": "open", "name": "b", "url": shared.srv.URL + "/article"})

	tab := m.lookup("a")
	tab.busy.Lock()
	if _, err := m.SetHeadless(false); err == nil || !m.Headless() || len(m.Names()) != 2 {
		t.Fatalf("switch during a call: %v, headless %v, tabs %v", err, m.Headless(), m.Names())
	}
	tab.busy.Unlock()

	n, err := m.SetHeadless(false)
	if err != nil || n != 2 {
		t.Fatalf("switch: %d tabs closed, %v", n, err)
	}
	if m.Headless() || len(m.Names()) != 0 || len(m.Pids()) != 0 {
		t.Errorf("after the switch: headless %v, tabs %v, browser pids %v", m.Headless(), m.Names(), m.Pids())
	}
}
