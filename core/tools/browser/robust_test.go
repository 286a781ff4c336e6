package browser

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// A browser that is stopped (SIGSTOP: as busy as a browser can be) for
// longer than any ping would wait is waited for, not declared dead: the
// calls made meanwhile finish once it goes on, with no restart note, and
// the tabs are still there.
func TestStoppedBrowserIsWaitedFor(t *testing.T) {
	need(t)
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	defer func() { _ = m.Close() }()
	ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/article", "wait_until": "load"})
	pids := m.Pids()
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(4 * time.Second); _ = syscall.Kill(pids[0], syscall.SIGCONT) }()
	res := ok(t, m, map[string]any{"action": "run", "timeout": 20, "code": `return await tab.title()`})
	if text(res) != "Gopi article" {
		t.Errorf("run on the stopped browser: %q", text(res))
	}
	if err := syscall.Kill(pids[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(4 * time.Second); _ = syscall.Kill(pids[0], syscall.SIGCONT) }()
	res = ok(t, m, map[string]any{"action": "open", "name": "second", "url": shared.srv.URL + "/form", "wait_until": "load", "timeout": 20})
	if strings.Contains(text(res), "started again") {
		t.Errorf("the stopped browser was replaced: %q", text(res))
	}
	if names := m.Names(); len(names) != 2 {
		t.Errorf("tabs %v, want main and second", names)
	}
	if got := m.Pids(); len(got) != 1 || got[0] != pids[0] {
		t.Errorf("browser pids %v, want %v", got, pids)
	}
}
