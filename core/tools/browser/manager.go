package browser

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/headless"
)

// kindHeadless is the browser key of the Chromium gopi starts.
const kindHeadless = "headless"

// Manager owns a session's browsers and named tabs: the Chromium is
// started on the first open and kept until Close (the session's end), an
// attached CDP endpoint is connected on its first open. Tabs are shared by
// every call of the session (and the subagents given the same Manager).
type Manager struct {
	settings config.Browser

	mu       sync.Mutex
	browsers map[string]*headless.Browser // by kind: kindHeadless or "cdp:<url>"
	tabs     map[string]*Tab
	closed   bool
}

// Tab is one named tab of the Manager.
type Tab struct {
	Name    string
	kind    string
	desc    string // the browser's description, for the tool's output
	dialogs string
	page    *headless.Tab
	busy    sync.Mutex // held by the call using the tab
}

// NewManager returns a Manager for settings; nothing is started yet.
func NewManager(settings config.Browser) *Manager {
	return &Manager{settings: settings, browsers: map[string]*headless.Browser{}, tabs: map[string]*Tab{}}
}

// errClosed is returned after Close.
var errClosed = errors.New("the session's browser is closed; start a new session")

// browser returns the browser of kind, starting or attaching it when
// needed. A started Chromium that has exited (crashed, killed) is
// replaced, its tabs dropped, and note says so. Callers hold m.mu.
func (m *Manager) browser(ctx context.Context, kind, cdpURL string, vp headless.Viewport) (b *headless.Browser, note string, err error) {
	if m.closed {
		return nil, "", errClosed
	}
	if b := m.browsers[kind]; b != nil {
		if !b.Exited() {
			return b, "", nil
		}
		note = fmt.Sprintf("Note: the browser (%s) had exited or crashed; it was started again and its tabs are gone.\n", b.Describe())
		m.dropLocked(kind)
	}
	if kind == kindHeadless {
		if m.settings.Exec == "" {
			return nil, "", errors.New(headless.MissingHint)
		}
		b, err = headless.Launch(ctx, headless.LaunchOptions{Exec: m.settings.Exec, Headless: m.settings.Headless,
			Width: vp.Width, Height: vp.Height})
	} else {
		b, err = headless.Attach(ctx, cdpURL)
	}
	if err != nil {
		return nil, "", err
	}
	m.browsers[kind] = b
	return b, note, nil
}

// dropLocked forgets a dead browser and its tabs (their listeners end).
// Callers hold m.mu.
func (m *Manager) dropLocked(kind string) {
	for name, t := range m.tabs {
		if t.kind == kind {
			delete(m.tabs, name)
			t.page.Close()
		}
	}
	m.browsers[kind].Close()
	delete(m.browsers, kind)
}

// lookup returns the tab called name, or nil.
func (m *Manager) lookup(name string) *Tab {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tabs[name]
}

// release closes the tab called name; false when there is none.
func (m *Manager) release(name string) bool {
	m.mu.Lock()
	t := m.tabs[name]
	delete(m.tabs, name)
	m.mu.Unlock()
	if t == nil {
		return false
	}
	t.page.Close()
	return true
}

// releaseAll closes every tab and returns how many there were.
func (m *Manager) releaseAll() int {
	m.mu.Lock()
	tabs := make([]*Tab, 0, len(m.tabs))
	for _, t := range m.tabs {
		tabs = append(tabs, t)
	}
	m.tabs = map[string]*Tab{}
	m.mu.Unlock()
	for _, t := range tabs {
		t.page.Close()
	}
	return len(tabs)
}

// Names returns the open tabs' names, sorted.
func (m *Manager) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.tabs))
	for n := range m.tabs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Pids returns the process ids of the browsers the Manager started.
func (m *Manager) Pids() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var pids []int
	for _, b := range m.browsers {
		if p := b.Pid(); p != 0 {
			pids = append(pids, p)
		}
	}
	return pids
}

// Close closes every tab, ends the Chromium the Manager started (its
// whole process group) and disconnects from attached browsers. Later
// calls fail.
func (m *Manager) Close() error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.closed = true
	browsers, tabs := m.browsers, m.tabs
	m.browsers, m.tabs = map[string]*headless.Browser{}, map[string]*Tab{}
	m.mu.Unlock()
	for _, t := range tabs {
		t.page.Close()
	}
	for _, b := range browsers {
		b.Close()
	}
	return nil
}

// quote is JSON.stringify of a tab name, as the messages write it.
func quote(s string) string { return strconv.Quote(s) }

// Closed reports whether Close was called.
func (m *Manager) Closed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}
