package extensions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// loadCommunity loads the community extension in testdata/community/name
// unchanged, as a package directory, and fails the test on any error.
func loadCommunity(t *testing.T, name string, opts Options) *Runtime {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "community", name))
	if err != nil {
		t.Fatal(err)
	}
	entries, errs := Resolve(Sources{Cwd: t.TempDir(), Paths: []string{dir}, NoDiscovery: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// A handler's or timer's failure after load fails the test.
	opts.OnError = func(e LoadError) { t.Errorf("%s: %v", name, e) }
	rt := Load(context.Background(), entries, opts)
	t.Cleanup(rt.Close)
	if len(rt.Errors()) > 0 {
		t.Fatal(rt.Errors())
	}
	return rt
}

// commandNames are the runtime's command names, sorted.
func commandNames(rt *Runtime) []string {
	var names []string
	for _, c := range rt.Commands() {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	return names
}

// command is the runtime's command called name.
func command(t *testing.T, rt *Runtime, name string) *Command {
	t.Helper()
	for _, c := range rt.Commands() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no command %q in %v", name, commandNames(rt))
	return nil
}

// pi-aliases 1.0.7 (npm, MIT; a copy in testdata/community with its
// licence) loads unchanged as a package directory and registers its two
// commands.
func TestCommunityPiAliases(t *testing.T) {
	rt := loadCommunity(t, "pi-aliases", Options{Cwd: t.TempDir()})
	if names := commandNames(rt); !slices.Equal(names, []string{"clear", "exit"}) {
		t.Errorf("commands %v", names)
	}
}

// themeUI is a tool.UI with themes (tool.ThemeUI) whose dialogs answer
// from a script and which records what it was told.
type themeUI struct {
	tool.UI
	mu      sync.Mutex
	theme   string
	answers []string // the next dialogs' answers, in order
	notes   []string
	sets    []string
}

func (u *themeUI) next() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.answers) == 0 {
		return ""
	}
	a := u.answers[0]
	u.answers = u.answers[1:]
	return a
}

func (u *themeUI) Select(_ context.Context, _ string, options []string, _ time.Duration) (string, error) {
	want := u.next()
	for _, o := range options {
		if strings.HasPrefix(o, want) {
			return o, nil
		}
	}
	return "", fmt.Errorf("no option %q in %v", want, options)
}

func (u *themeUI) Input(context.Context, string, string, time.Duration) (string, error) {
	return u.next(), nil
}

func (u *themeUI) Notify(msg, level string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.notes = append(u.notes, level+": "+msg)
}

func (u *themeUI) Theme() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.theme
}

func (u *themeUI) Themes() []string { return []string{"dark", "light"} }

func (u *themeUI) SetTheme(name string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.theme = name
	u.sets = append(u.sets, name)
	return nil
}

func (u *themeUI) record() (notes, sets []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.notes), slices.Clone(u.sets)
}

// uiHost is a storeHost with a UI.
type uiHost struct {
	storeHost
	ui tool.UI
}

func (h *uiHost) UI() tool.UI { return h.ui }

// pi-sync-system-theme 0.2.5 (npm, MIT) loads unchanged and works through
// gopi's Node built-ins: at session start it reads its override file
// (fs/promises, os.homedir, path) and switches the UI's theme to it;
// /system-theme saves its settings (mkdir, writeFile through gopi's write
// path) and, with nothing left to save, removes the file again through a
// dynamic import of node:fs/promises. Its OS probe (child_process.execFile
// of gsettings, promisified) finds no desktop here and falls back.
func TestCommunitySyncSystemTheme(t *testing.T) {
	home := t.TempDir()
	agentDir := filepath.Join(home, ".pi", "agent")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
	override, _ := json.Marshal(map[string]string{"appearance": "dark", "updatedAt": time.Now().UTC().Format(time.RFC3339)})
	if err := os.WriteFile(filepath.Join(agentDir, "system-theme-override.json"), override, 0o644); err != nil {
		t.Fatal(err)
	}
	var written []string
	var wmu sync.Mutex
	rt := loadCommunity(t, "pi-sync-system-theme", Options{Cwd: home, Env: []string{"HOME=" + home, "PATH=/nonexistent"},
		Written: func(p string) { wmu.Lock(); written = append(written, p); wmu.Unlock() }})
	if names := commandNames(rt); !slices.Equal(names, []string{"system-theme", "system-theme-push"}) {
		t.Fatalf("commands %v", names)
	}
	ui := &themeUI{theme: "light"}
	rt.Bind(&uiHost{storeHost: storeHost{m: session.InMemory(home)}, ui: ui})
	if _, sets := ui.record(); !slices.Equal(sets, []string{"dark"}) {
		t.Fatalf("session start switched the theme to %v, want [dark] from the override file", sets)
	}

	// /system-theme: poll interval 2000 ms, then save.
	settings := filepath.Join(agentDir, "system-theme.json")
	ui.answers = []string{"Poll interval", "2000", "Save and apply"}
	if err := command(t, rt, "system-theme").Run(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(settings)
	if err != nil || !strings.Contains(string(b), `"pollMs": 2000`) {
		t.Fatalf("settings file %q, %v", b, err)
	}
	wmu.Lock()
	if !slices.Contains(written, settings) {
		t.Errorf("the write of %s was not reported (reported %v)", settings, written)
	}
	wmu.Unlock()
	// Back to the default: the file goes.
	ui.answers = []string{"Poll interval", "8000", "Save and apply"}
	if err := command(t, rt, "system-theme").Run(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Errorf("settings file still there after resetting to defaults: %v", err)
	}
	if notes, _ := ui.record(); len(notes) != 2 || notes[0] != "info: Settings saved." {
		t.Errorf("notifications %q", notes)
	}
}

func (h *uiHost) IsIdle() bool { return true }

// pi-prompt-template-model 0.12.2 (npm, MIT, with its dependency minimatch
// (BlueOak-1.0.0) and that one's, vendored as npm installed them) loads
// unchanged: its prompt templates in the agent directory become commands
// at session start (fs, path, os, getAgentDir, parseFrontmatter, minimatch),
// its run-prompt tool is registered when its settings enable it (typebox's
// Type), and /prompt-tool off saves the setting through gopi's write path.
func TestCommunityPromptTemplateModel(t *testing.T) {
	home := t.TempDir()
	agentDir := filepath.Join(home, ".gopi", "agent")
	writeExt(t, agentDir, "prompts/review.md", "---\ndescription: Review a change\nmodel: mock/mock-1\n---\nReview $@ carefully.\n")
	writeExt(t, agentDir, "prompt-template-model.json", `{"toolEnabled": true}`)
	rt := loadCommunity(t, "pi-prompt-template-model", Options{Cwd: home, AgentDir: agentDir, Env: []string{"HOME=" + home}})
	var tools []string
	for _, tl := range rt.Tools() {
		tools = append(tools, tl.Definition().Name)
	}
	if !slices.Equal(tools, []string{"run-prompt"}) {
		t.Errorf("tools %v, want [run-prompt] (enabled in its settings)", tools)
	}
	ui := &themeUI{theme: "dark"}
	rt.Bind(&uiHost{storeHost: storeHost{m: session.InMemory(home)}, ui: ui})
	if names := commandNames(rt); !slices.Equal(names, []string{"chain-prompts", "prompt-tool", "review"}) {
		t.Fatalf("commands %v, want the template's /review besides the extension's own", names)
	}
	for _, c := range rt.Commands() {
		if c.Name == "review" && !strings.Contains(c.Description, "Review a change") {
			t.Errorf("/review's description %q", c.Description)
		}
	}
	// Session start again (a /new): the template's command is registered
	// anew, not twice.
	rt.Emit(context.Background(), "session_start", map[string]any{})
	if names := commandNames(rt); len(names) != 3 {
		t.Errorf("commands after a second session start %v", names)
	}
	if err := command(t, rt, "prompt-tool").Run(context.Background(), "off"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(agentDir, "prompt-template-model.json"))
	if err != nil || !strings.Contains(string(b), `"toolEnabled": false`) {
		t.Errorf("settings %q, %v", b, err)
	}
	if notes, _ := ui.record(); !slices.Contains(notes, "info: run-prompt tool disabled.") {
		t.Errorf("notifications %q", notes)
	}
}
func (h *uiHost) Model() *ai.Model      { return &ai.Model{Provider: "mock", ID: "mock-1"} }
func (h *uiHost) ThinkingLevel() string { return "off" }
