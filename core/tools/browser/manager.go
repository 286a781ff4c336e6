package browser

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/headless"
)

// browserKind says which browser a tab lives in, as omp's kinds: the
// Chromium gopi starts ("headless"), an app spawned from app.path
// ("spawned") or a running browser attached by app.cdp_url ("connected").
type browserKind struct {
	tag    string   // "headless", "spawned" or "connected"
	path   string   // spawned: the app's executable
	cdpURL string   // connected: the DevTools endpoint, without a trailing slash
	args   []string // spawned: the app's arguments (not part of the key)
}

// key is the kind's entry in Manager.browsers.
func (k browserKind) key() string {
	switch k.tag {
	case "spawned":
		return "spawned:" + k.path
	case "connected":
		return "connected:" + k.cdpURL
	}
	return "headless"
}

// Manager owns a session's browsers and named tabs: the Chromium is
// started on the first open and kept until Close (the session's end), an
// attached CDP endpoint is connected on its first open. Tabs are shared by
// every call of the session (and the subagents given the same Manager).
type Manager struct {
	settings config.Browser

	mu       sync.Mutex
	browsers map[string]*headless.Browser // by browserKind.key
	tabs     map[string]*Tab
	closed   bool

	life     context.Context    // ends with Close: stops the background cleanups
	endLife  context.CancelFunc //
	cleanups sync.WaitGroup     // the background cleanups (unstick); Close waits for them
}

// Tab is one named tab of the Manager.
type Tab struct {
	Name    string
	kind    browserKind
	desc    string // the browser's description, for the tool's output
	dialogs string
	page    *headless.Tab
	busy    sync.Mutex    // held by the call using the tab
	settled chan struct{} // closed when the freeing after a timed-out call is over; nil when none (guarded by busy)
}

// NewManager returns a Manager for settings; nothing is started yet.
func NewManager(settings config.Browser) *Manager {
	life, end := context.WithCancel(context.Background())
	return &Manager{settings: settings, browsers: map[string]*headless.Browser{}, tabs: map[string]*Tab{}, life: life, endLife: end}
}

// errClosed is returned after Close.
var errClosed = errors.New("the session's browser is closed; start a new session")

// browser returns the browser of kind, starting, spawning or attaching
// it when needed. A browser that has exited (crashed, killed) or stopped
// answering is replaced, its tabs dropped, and note says so. Callers hold
// m.mu.
func (m *Manager) browser(ctx context.Context, kind browserKind, vp headless.Viewport) (b *headless.Browser, note string, err error) {
	if m.closed {
		return nil, "", errClosed
	}
	key := kind.key()
	if b := m.browsers[key]; b != nil {
		if !b.Exited() {
			return b, "", nil
		}
		note = fmt.Sprintf("Note: the browser (%s) had exited or crashed; it was started again and its tabs are gone.\n", b.Describe())
		m.dropLocked(key)
	}
	switch kind.tag {
	case "headless":
		if m.settings.Exec == "" {
			return nil, "", errors.New(headless.MissingHint)
		}
		if env := m.settings.ExecEnv; env != "" {
			if err := headless.CheckExecutable(m.settings.Exec); err != nil {
				return nil, "", fmt.Errorf("%s names the browser to start, but %v: fix the path or unset %s to use the system Chromium", env, err, env)
			}
		}
		b, err = headless.Launch(ctx, headless.LaunchOptions{Exec: m.settings.Exec, Headless: m.settings.Headless,
			Width: vp.Width, Height: vp.Height})
	case "spawned":
		b, err = headless.Spawn(ctx, headless.SpawnOptions{Exec: kind.path, Args: kind.args})
	default:
		b, err = headless.Attach(ctx, kind.cdpURL)
	}
	if err != nil {
		return nil, "", err
	}
	m.browsers[key] = b
	return b, note, nil
}

// dropLocked forgets a dead browser and its tabs (their listeners end).
// Callers hold m.mu.
func (m *Manager) dropLocked(key string) {
	for name, t := range m.tabs {
		if t.kind.key() == key {
			delete(m.tabs, name)
			t.page.Close()
		}
	}
	m.browsers[key].Close()
	delete(m.browsers, key)
}

// Headless reports whether the session's own Chromium runs without a
// window (browser.headless, or what SetHeadless last set).
func (m *Manager) Headless() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.settings.Headless
}

// SetHeadless sets the mode of the session's own Chromium (/browser).
// One running in the other mode is closed with its tabs, and the next
// open starts it in the new mode; closed says how many tabs went. Spawned
// apps and attached browsers are left alone. It refuses while a call is
// using one of the tabs it would close.
func (m *Manager) SetHeadless(headless bool) (closed int, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, errClosed
	}
	if m.settings.Headless == headless {
		return 0, nil
	}
	const key = "headless"
	if m.browsers[key] != nil {
		var held []*Tab
		for _, t := range m.tabs {
			if t.kind.key() != key {
				continue
			}
			if !t.busy.TryLock() {
				for _, h := range held {
					h.busy.Unlock()
				}
				return 0, errors.New("a browser call is using the session's browser; switch when it has ended")
			}
			held = append(held, t)
		}
		m.dropLocked(key)
		for _, h := range held {
			h.busy.Unlock()
		}
		closed = len(held)
	}
	m.settings.Headless = headless
	return closed, nil
}

// lookup returns the tab called name, or nil.
func (m *Manager) lookup(name string) *Tab {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tabs[name]
}

// release closes the tab called name; false when there is none. With
// kill, a spawned app none of whose tabs is left is ended too.
func (m *Manager) release(name string, kill bool) bool {
	m.mu.Lock()
	t := m.tabs[name]
	delete(m.tabs, name)
	m.mu.Unlock()
	if t == nil {
		return false
	}
	t.page.Close()
	if kill {
		m.killUnused()
	}
	return true
}

// releaseAll closes every tab and returns how many there were; with kill
// the spawned apps are ended too.
func (m *Manager) releaseAll(kill bool) int {
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
	if kill {
		m.killUnused()
	}
	return len(tabs)
}

// killUnused ends the spawned apps no tab uses any more (close with
// kill). Without kill they keep running until the session ends.
func (m *Manager) killUnused() {
	m.mu.Lock()
	var ended []*headless.Browser
	for key, b := range m.browsers {
		if !strings.HasPrefix(key, "spawned:") {
			continue
		}
		used := false
		for _, t := range m.tabs {
			used = used || t.kind.key() == key
		}
		if !used {
			ended = append(ended, b)
			delete(m.browsers, key)
		}
	}
	m.mu.Unlock()
	for _, b := range ended {
		b.Kill()
	}
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

// Close closes every tab, ends the Chromium and the apps the Manager
// started (their whole process groups) and disconnects from attached
// browsers. Later calls fail.
func (m *Manager) Close() error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.closed = true
	browsers, tabs := m.browsers, m.tabs
	m.browsers, m.tabs = map[string]*headless.Browser{}, map[string]*Tab{}
	m.mu.Unlock()
	m.endLife()
	m.cleanups.Wait()
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
