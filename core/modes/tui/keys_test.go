package tui

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/prompthistory"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Ctrl+R searches the prompts of every session, newest first, by the
// words typed; Enter puts the chosen one in the editor, Esc leaves the
// editor as it was.
func TestCtrlRSearchesPromptHistory(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	store, err := prompthistory.Open(r.m.ctx, filepath.Join(t.TempDir(), "history.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, p := range []string{"deploy the staging site", "fix the flaky test", "deploy production\nafter the tests pass", "rename the package"} {
		if err := store.Add(r.m.ctx, p, "/elsewhere"); err != nil {
			t.Fatal(err)
		}
	}
	r.m.opts.History = store
	r.key("draft")
	r.key("ctrl+r")
	if r.m.picker == nil || !strings.Contains(r.view(), "Search history (ctrl+r)") {
		t.Fatalf("no search:\n%s", r.view())
	}
	r.key("esc")
	if r.m.picker != nil || r.m.ed.text() != "draft" {
		t.Fatalf("Esc: picker %v, editor %q", r.m.picker != nil, r.m.ed.text())
	}
	r.key("ctrl+r")
	r.key("deploy")
	view := r.view()
	if !strings.Contains(view, "deploy production after the tests pass") || strings.Contains(view, "flaky") {
		t.Fatalf("the search did not narrow to the deploy prompts:\n%s", view)
	}
	if strings.Index(view, "deploy production") > strings.Index(view, "deploy the staging") {
		t.Errorf("the newest prompt is not first:\n%s", view)
	}
	r.key("down")
	r.key("enter")
	if got := r.m.ed.text(); got != "deploy the staging site" {
		t.Errorf("editor %q after choosing", got)
	}
}

// Waiting steer and follow-up messages are listed above the editor;
// Alt+Up takes them back into it (before what is typed) unsent.
func TestAltUpTakesQueuedMessagesBack(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("slow")}, Hold: hold}, answer("done"))
	r.typeAndSend("start")
	r.until("running", func() bool { return r.m.running })
	r.key("steer me")
	r.key("enter")
	r.key("follow me")
	r.key("alt+enter")
	r.until("queued", func() bool { return r.s.State().QueuedMessageCount == 2 })
	view := r.view()
	for _, want := range []string{"Steer: steer me", "Follow-up: follow me", "└ alt+up to edit"} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
	r.key("typed")
	r.key("alt+up")
	if got := r.m.ed.text(); got != "steer me\n\nfollow me\n\ntyped" {
		t.Errorf("editor %q", got)
	}
	if strings.Contains(r.view(), "Steer: steer me") || r.s.State().QueuedMessageCount != 0 {
		t.Errorf("the messages still wait:\n%s", r.view())
	}
	close(hold)
	r.idle()
	for _, req := range r.llm.Requests() {
		if strings.Contains(string(req.Body), "follow me") {
			t.Error("a message taken back was sent")
		}
	}
	r.m.ed.clear()
	r.key("alt+up")
	if !strings.Contains(r.view(), "No queued message to take back") {
		t.Errorf("no notice with nothing queued:\n%s", r.view())
	}
}

// Esc twice on an empty editor opens the session tree (omp's default
// doubleEscapeAction); with text typed it does nothing: the draft stays,
// as in omp.
func TestDoubleEscOpensTree(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("hello back"))
	r.typeAndSend("hello")
	r.idle()
	r.key("some text")
	r.key("esc")
	r.key("esc")
	if r.m.ed.text() != "some text" || r.m.picker != nil {
		t.Fatalf("Esc twice with text: editor %q, picker %v", r.m.ed.text(), r.m.picker != nil)
	}
	r.m.ed.clear()
	r.key("esc")
	r.key("esc")
	if r.m.picker == nil || r.m.picker.title != "Session tree" {
		t.Fatalf("Esc twice on an empty editor did not open the tree:\n%s", r.view())
	}
}

// doubleEscapeAction: none leaves double Esc alone; branch opens the
// branch picker.
func TestDoubleEscSetting(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ setting, title string }{{"none", ""}, {"branch", "Branch from"}} {
		r := newRigWith(t, "doubleEscapeAction: "+c.setting+"\n", answer("hello back"))
		r.typeAndSend("hello")
		r.idle()
		r.key("esc")
		r.key("esc")
		switch {
		case c.title == "" && r.m.picker != nil:
			t.Errorf("%s: a picker opened: %q", c.setting, r.m.picker.title)
		case c.title != "" && (r.m.picker == nil || !strings.HasPrefix(r.m.picker.title, c.title)):
			t.Errorf("%s: view\n%s", c.setting, r.view())
		}
	}
}

// Ctrl+L opens the model picker, as in omp.
func TestCtrlLPicksModel(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.key("ctrl+l")
	if r.m.picker == nil || r.m.picker.title != "Model" {
		t.Fatalf("Ctrl+L:\n%s", r.view())
	}
}

// fakeClipboard installs a wl-paste that offers a PNG image and returns
// the environment that finds it.
func fakeClipboard(t *testing.T, png []byte) []string {
	t.Helper()
	dir := t.TempDir()
	img := filepath.Join(dir, "clip.png")
	if err := os.WriteFile(img, png, 0o600); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ncase \"$1\" in\n--list-types) printf 'text/plain\\nimage/png\\n' ;;\n*) cat '" + img + "' ;;\nesac\n"
	if err := os.WriteFile(filepath.Join(dir, "wl-paste"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{"WAYLAND_DISPLAY=wayland-0", "PATH=" + dir + ":/usr/bin:/bin"}
}

// tinyPNG is a 1×1 PNG.
var tinyPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

// Ctrl+V attaches the clipboard's image (wl-paste under Wayland) to the
// message, marked "[Image #1]" in the editor.
func TestCtrlVPastesImage(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("a tiny image"))
	r.m.opts.Environ = fakeClipboard(t, tinyPNG)
	r.key("what is this? ")
	r.key("ctrl+v")
	r.until("the image", func() bool { return strings.Contains(r.m.ed.text(), "[Image #1]") })
	r.key("enter")
	r.idle()
	u, _ := r.s.Messages()[0].(*ai.UserMessage)
	if u == nil || imageCount(u.Content) != 1 || !strings.Contains(userText(u.Content), "[Image #1]") {
		t.Errorf("the image was not sent with the message: %+v", r.s.Messages()[0])
	}
	if len(r.m.keys.images) != 0 {
		t.Error("the images stayed for the next message")
	}
}

// Without a display, or without a clipboard tool, Ctrl+V says why.
func TestCtrlVWithoutClipboard(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"PATH=/usr/bin:/bin"}, "No clipboard (no DISPLAY or WAYLAND_DISPLAY): use terminal paste for text"},
		{[]string{"DISPLAY=:0", "PATH=" + t.TempDir()}, "Image paste needs wl-paste (Wayland) or xclip (X11)"},
	} {
		r := newRig(t)
		r.m.opts.Environ = c.env
		r.key("ctrl+v")
		r.until("the notice", func() bool { return strings.Contains(r.view(), c.want) })
		if r.m.ed.text() != "" {
			t.Errorf("editor %q", r.m.ed.text())
		}
	}
}

// Ctrl+Z suspends through Bubble Tea (which restores the terminal and
// sends SIGTSTP to gopi's process group; tmux tests cover fg).
func TestCtrlZSuspends(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	_, cmd := r.m.Update(tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("no command for Ctrl+Z")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Error("Ctrl+Z did not suspend")
	}
}

// Esc twice arriving as one key (ESC ESC read at once: alt+esc) is a
// double Esc.
func TestEscEscAsOneKey(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("hello back"))
	r.typeAndSend("hello")
	r.idle()
	r.update(tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt})
	if r.m.picker == nil || r.m.picker.title != "Session tree" {
		t.Fatalf("alt+esc did not open the tree:\n%s", r.view())
	}
}
