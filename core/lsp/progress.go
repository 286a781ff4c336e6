package lsp

import (
	"encoding/json"
	"sync"
	"time"
)

// ProjectLoadTimeout is the longest a navigation waits for a server to
// report, through $/progress, that it has loaded the project; a server
// that reports no progress is taken as loaded after it.
const ProjectLoadTimeout = 15 * time.Second

// loadTracker follows a server's $/progress reports to tell when its
// first project load is over: once every begun report has ended, or when
// the fallback timer fires, or when the server is gone.
type loadTracker struct {
	mu     sync.Mutex
	active map[string]bool
	loaded chan struct{}
	once   sync.Once
	timer  *time.Timer
}

func newLoadTracker(fallback time.Duration) *loadTracker {
	t := &loadTracker{active: map[string]bool{}, loaded: make(chan struct{})}
	t.timer = time.AfterFunc(fallback, t.done)
	return t
}

// done marks the project loaded.
func (t *loadTracker) done() {
	t.once.Do(func() { close(t.loaded) })
}

// stop ends the fallback timer and marks the load over (the server is
// gone).
func (t *loadTracker) stop() {
	t.timer.Stop()
	t.done()
}

// progress handles one $/progress notification.
func (t *loadTracker) progress(raw json.RawMessage) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return
	}
	token := string(p.Token)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch p.Value.Kind {
	case "begin":
		t.active[token] = true
	case "end":
		delete(t.active, token)
		if len(t.active) == 0 {
			t.done()
		}
	}
}
