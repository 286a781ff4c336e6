package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// rig runs the UI model without a terminal: a session against a scripted
// mock LLM in an isolated home, its events fed to Update, commands run
// in goroutines as Bubble Tea runs them, their messages fed back.
type rig struct {
	t       *testing.T
	llm     *mockllm.Server
	project string
	s       *agentsession.Session
	m       *model
	msgs    chan tea.Msg
	printed []string
	quit    bool
}

func newRig(t *testing.T, turns ...mockllm.Turn) *rig {
	t.Helper()
	return newRigWith(t, "", turns...)
}

// newRigWith is newRig with more lines for the agent's config.yml.
func newRigWith(t *testing.T, extraConfig string, turns ...mockllm.Turn) *rig {
	t.Helper()
	return newRigFull(t, extraConfig, nil, turns...)
}

// newRigFull is newRigWith with a hook that adjusts the session options.
func newRigFull(t *testing.T, extraConfig string, adjust func(*agentsession.Options, *models.Registry), turns ...mockllm.Turn) *rig {
	t.Helper()
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	agentDir := filepath.Join(home, ".gopi", "agent")
	for _, d := range []string{agentDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	llm := mockllm.New(t)
	llm.Script(turns...)
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        contextWindow: 100000\n      - id: other-model\n        reasoning: true\n", llm.URL())
	write(t, filepath.Join(agentDir, "models.yml"), yml)
	write(t, filepath.Join(agentDir, "config.yml"), "edit:\n  mode: replace\n"+extraConfig)
	environ := []string{"HOME=" + home, "MOCK_KEY=test", "PI_NO_TITLE=1", "PATH=" + os.Getenv("PATH")}
	cfg, err := config.Load(config.LoadOptions{Cwd: project, Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := models.Load(models.OptionsFor(cfg))
	if err != nil {
		t.Fatal(err)
	}
	md, err := reg.Find("mock/mock-model")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	o := agentsession.Options{Config: cfg, Cwd: project, Models: reg, Model: md, NoTitle: true}
	if adjust != nil {
		adjust(&o, reg)
	}
	s, err := agentsession.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, llm: llm, project: project, s: s, msgs: make(chan tea.Msg, 1024)}
	r.m = newModel(ctx, s, Options{Cwd: project, NoColor: true, Record: &r.printed})
	r.m.width, r.m.height, r.m.r.width = 100, 30, 100
	unsub := s.Subscribe(func(e agent.Event) { r.msgs <- eventMsg{e} })
	if err := s.Tools().SetUI(&dialogUI{send: func(msg tea.Msg) { r.msgs <- msg }}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		unsub()
		s.Abort()
		cancel()
		s.Close()
	})
	r.run(r.m.Init())
	return r
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs a command the way Bubble Tea does: in a goroutine, its message
// sent back to Update.
func (r *rig) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			r.msgs <- msg
		}
	}()
}

// update feeds one message to the model.
func (r *rig) update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			r.run(c)
		}
		return
	case tea.QuitMsg:
		r.quit = true
		return
	}
	_, cmd := r.m.Update(msg)
	r.run(cmd)
}

// key presses a key: "enter", "esc", "ctrl+c", "alt+enter", "up", or
// text to type.
func (r *rig) key(k string) {
	var msg tea.KeyPressMsg
	switch k {
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "alt+enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	case "shift+enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp}
	case "alt+up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	case "home":
		msg = tea.KeyPressMsg{Code: tea.KeyHome}
	case "tab":
		msg = tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		msg = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+c", "ctrl+d", "ctrl+t", "ctrl+p", "ctrl+o", "ctrl+r", "ctrl+g", "ctrl+v", "ctrl+l", "ctrl+z":
		msg = tea.KeyPressMsg{Code: rune(k[5]), Mod: tea.ModCtrl}
	default:
		for _, c := range k {
			r.update(tea.KeyPressMsg{Code: c, Text: string(c)})
		}
		return
	}
	r.update(msg)
}

// typeAndSend types text and presses Enter.
func (r *rig) typeAndSend(text string) {
	r.key(text)
	r.key("enter")
}

// until feeds messages until cond holds, failing after a while.
func (r *rig) until(what string, cond func() bool) {
	r.t.Helper()
	deadline := time.After(20 * time.Second)
	for !cond() {
		select {
		case msg := <-r.msgs:
			r.update(msg)
		case <-deadline:
			r.t.Fatalf("waiting for %s; printed so far:\n%s\nview:\n%s", what, r.transcript(), r.view())
		}
	}
}

// settle feeds messages until none arrives for a moment.
func (r *rig) settle() {
	for {
		select {
		case msg := <-r.msgs:
			r.update(msg)
		case <-time.After(150 * time.Millisecond):
			return
		}
	}
}

// idle waits for the agent's run to end and the UI to see it: every
// prompt sent has come back (with its error, if any) and nothing runs.
func (r *rig) idle() {
	r.t.Helper()
	r.until("the run to end", func() bool {
		return r.m.prompting == 0 && !r.m.running && !r.s.Turn().IsBusy() && r.m.busy == ""
	})
	r.settle()
}

func (r *rig) transcript() string { return strings.Join(r.printed, "\n") }

func (r *rig) view() string { return r.m.View().Content }

// printedHas reports whether the transcript contains s.
func (r *rig) printedHas(s string) bool { return strings.Contains(r.transcript(), s) }

func pasteMsg(s string) tea.Msg { return tea.PasteMsg{Content: s} }

// keyMsg builds a key press from its name.
func keyMsg(k string) tea.Msg {
	switch k {
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}
