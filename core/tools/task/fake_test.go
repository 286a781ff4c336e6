package task

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

// fakeHost starts fakeChildren; each answers with what answer returns for
// its assignment, after waiting for release when hold is set.
type fakeHost struct {
	cfg    *config.Config
	pos    Position
	answer func(assignment string) (string, error)
	hold   chan struct{} // closed to let children answer; nil: answer at once

	mu       sync.Mutex
	specs    []ChildSpec
	running  int
	peak     int
	started  chan string // receives each assignment as its child starts (buffered)
	startErr error
}

func newFakeHost(t *testing.T, settings map[string]any, environ ...string) *fakeHost {
	t.Helper()
	cfg, err := config.Load(config.LoadOptions{Cwd: t.TempDir(), Home: t.TempDir(), Environ: environ, NoFiles: true, Overrides: settings})
	if err != nil {
		t.Fatal(err)
	}
	return &fakeHost{cfg: cfg, pos: TopLevel, started: make(chan string, 64),
		answer: func(a string) (string, error) { return "answer to " + a, nil }}
}

func (h *fakeHost) Config() *config.Config { return h.cfg }
func (h *fakeHost) SessionFile() string    { return "" }
func (h *fakeHost) Position() Position     { return h.pos }
func (h *fakeHost) ToolNames() []string {
	return []string{"read", "write", "edit", "search", "find", "ast_grep", "ast_edit", "resolve", "ask", "task"}
}

func (h *fakeHost) StartChild(_ context.Context, spec ChildSpec) (Child, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.startErr != nil {
		return nil, h.startErr
	}
	h.specs = append(h.specs, spec)
	return &fakeChild{h: h, file: spec.SessionFile}, nil
}

type fakeChild struct {
	h    *fakeHost
	file string
	last *ai.AssistantMessage
	subs []func(agent.Event)
}

func (c *fakeChild) Prompt(ctx context.Context, text string) error {
	h := c.h
	h.mu.Lock()
	h.running++
	h.peak = max(h.peak, h.running)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.running--
		h.mu.Unlock()
	}()
	h.started <- text
	for _, fn := range c.subs {
		fn(agent.ToolExecutionStart{ToolName: "read"})
	}
	if h.hold != nil {
		select {
		case <-h.hold:
		case <-ctx.Done():
			c.last = &ai.AssistantMessage{StopReason: ai.StopReasonAborted}
			return ctx.Err()
		}
	}
	out, err := h.answer(text)
	if err != nil {
		c.last = &ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: err.Error()}
		return nil
	}
	c.last = &ai.AssistantMessage{Content: ai.ContentList{ai.Text(out)}, StopReason: ai.StopReasonStop, Usage: ai.Usage{Input: 10, Output: 5, TotalTokens: 15}}
	for _, fn := range c.subs {
		fn(agent.MessageEnd{Message: c.last})
	}
	return nil
}

func (c *fakeChild) Subscribe(fn func(agent.Event)) func() {
	c.subs = append(c.subs, fn)
	return func() {}
}
func (c *fakeChild) LastAssistant() *ai.AssistantMessage { return c.last }
func (c *fakeChild) SessionFile() string                 { return c.file }
func (c *fakeChild) Model() *ai.Model                    { return &ai.Model{Provider: "fake", ID: "m"} }
func (c *fakeChild) Close() error                        { return nil }

// bind returns a task tool for a fake host, with an artifacts store when
// dir is set.
func bind(t *testing.T, h *fakeHost, dir string) tool.Tool {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	if dir != "" {
		env.Artifacts = artifact.NewStore(dir)
	}
	return New(env, h, nil, &IDs{}) // no background jobs
}

// execute runs one call and collects its updates.
func execute(t *testing.T, ctx context.Context, tl tool.Tool, args any) (*tool.Result, []*Details) {
	t.Helper()
	raw, _ := json.Marshal(args)
	var mu sync.Mutex
	var updates []*Details
	res, err := tool.Run(ctx, tl, raw, func(p *tool.Result) {
		mu.Lock()
		defer mu.Unlock()
		d := *p.Details.(*Details)
		d.Progress = append([]Progress(nil), d.Progress...)
		updates = append(updates, &d)
	})
	if err != nil && !errors.Is(err, tool.ErrAborted) {
		t.Fatal(err)
	}
	return res, updates
}

func tasks(ids ...string) []map[string]string {
	var out []map[string]string
	for _, id := range ids {
		out = append(out, map[string]string{"id": id, "description": "about " + id, "assignment": "do " + id})
	}
	return out
}

func artifactsDir(t *testing.T) string { return filepath.Join(t.TempDir(), "session") }
