package agentsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
)

// turnFunc plays one scripted response.
type turnFunc func(ctx context.Context, req *ai.Request, em *ai.Emitter)

// script is a StreamFunc playing scripted turns; title requests (told
// apart by their system prompt) get their own answer so they never take a
// scripted turn.
type script struct {
	mu     sync.Mutex
	turns  []turnFunc
	reqs   []*ai.Request
	titles []*ai.Request
	title  string
	// summarize, when set, answers summary requests (told apart by the
	// compaction system prompt), which are recorded in sums.
	summarize turnFunc
	sums      []*ai.Request
}

func (s *script) add(turns ...turnFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

func (s *script) stream(ctx context.Context, req *ai.Request) *ai.Stream {
	em, st := ai.NewEmitter(req.Model)
	s.mu.Lock()
	if req.SystemPrompt == titleInstructions {
		s.titles = append(s.titles, req)
		title := s.title
		s.mu.Unlock()
		go say(title)(ctx, req, em)
		return st
	}
	if req.SystemPrompt == compaction.SystemPrompt && s.summarize != nil {
		s.sums = append(s.sums, req)
		sum := s.summarize
		s.mu.Unlock()
		go sum(ctx, req, em)
		return st
	}
	s.reqs = append(s.reqs, req)
	var turn turnFunc
	if len(s.turns) > 0 {
		turn, s.turns = s.turns[0], s.turns[1:]
	}
	s.mu.Unlock()
	go func() {
		if turn == nil {
			em.Fail(ctx, req.Model, errors.New("script exhausted"))
			return
		}
		turn(ctx, req, em)
	}()
	return st
}

func (s *script) requests() []*ai.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*ai.Request(nil), s.reqs...)
}

func say(text string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, text)
		em.EndText(i)
		em.SetStopReason(ai.StopReasonStop)
		em.Done(req.Model)
	}
}

func callTool(id, name, args string) turnFunc {
	return func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		em.Start()
		i := em.StartToolCall(id, name)
		em.ToolCallDelta(i, args)
		em.EndToolCall(i)
		em.SetStopReason(ai.StopReasonToolUse)
		em.Done(req.Model)
	}
}

// fixture is an isolated configuration: a home, an agent dir and a project.
type fixture struct {
	t       *testing.T
	home    string
	project string
	environ []string
	script  *script
}

func newFixture(t *testing.T, environ ...string) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), script: &script{title: "A short title"}}
	for _, d := range []string{f.home, f.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.environ = append([]string{"HOME=" + f.home}, environ...)
	return f
}

func (f *fixture) config() *config.Config {
	f.t.Helper()
	cfg, err := config.Load(config.LoadOptions{Cwd: f.project, Environ: f.environ, Home: f.home})
	if err != nil {
		f.t.Fatal(err)
	}
	return cfg
}

func (f *fixture) registry(cfg *config.Config) *models.Registry {
	f.t.Helper()
	reg, err := models.Load(models.OptionsFor(cfg))
	if err != nil {
		f.t.Fatal(err)
	}
	return reg
}

// open builds a session with the fixture's script as the provider.
func (f *fixture) open(opts Options) *Session {
	f.t.Helper()
	s, err := f.tryOpen(opts)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { s.Close() })
	return s
}

func (f *fixture) tryOpen(opts Options) (*Session, error) {
	if opts.Config == nil {
		opts.Config = f.config()
	}
	if opts.Models == nil {
		opts.Models = f.registry(opts.Config)
	}
	if opts.Stream == nil {
		opts.Stream = f.script.stream
	}
	return New(context.Background(), opts)
}

func (f *fixture) model(reg *models.Registry, query string) *ai.Model {
	f.t.Helper()
	m, err := reg.Find(query)
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

// entryTypes lists the entry types of a session file.
func entryTypes(t *testing.T, path string) []string {
	t.Helper()
	m, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var out []string
	for _, e := range m.Entries() {
		typ := e.Type
		if e.Message != nil {
			typ += ":" + string(e.Message.MessageRole())
		}
		out = append(out, typ)
	}
	return out
}

func userTexts(msgs []ai.Message) []string {
	var out []string
	for _, m := range msgs {
		if u, ok := m.(*ai.UserMessage); ok {
			var b strings.Builder
			for _, c := range u.Content {
				if t, ok := c.(*ai.TextContent); ok {
					b.WriteString(t.Text)
				}
			}
			out = append(out, b.String())
		}
	}
	return out
}
