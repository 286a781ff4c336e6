package inspectimage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
)

// fakeHost serves models from a list and answers with reply.
type fakeHost struct {
	models []*ai.Model
	roles  map[string]string // role → model id
	active *ai.Model
	noAuth map[string]bool // providers without credentials
	// revoked are providers listed with credentials whose key is gone
	// when the tool asks for it.
	revoked map[string]bool
	reply   *ai.AssistantMessage
	got     *ai.Request
}

func (h *fakeHost) Available() []*ai.Model {
	var out []*ai.Model
	for _, m := range h.models {
		if !h.noAuth[m.Provider] {
			out = append(out, m)
		}
	}
	return out
}

func (h *fakeHost) Resolve(pattern string) *ai.Model {
	id := pattern
	if role, ok := strings.CutPrefix(pattern, "pi/"); ok {
		if id = h.roles[role]; id == "" {
			return nil
		}
	}
	for _, m := range h.models {
		if m.ID == id && h.HasAuth(m) {
			return m
		}
	}
	return nil
}

func (h *fakeHost) Active() *ai.Model        { return h.active }
func (h *fakeHost) HasAuth(m *ai.Model) bool { return !h.noAuth[m.Provider] && !h.revoked[m.Provider] }
func (h *fakeHost) Complete(_ context.Context, req *ai.Request) *ai.AssistantMessage {
	h.got = req
	return h.reply
}

var (
	textModel   = &ai.Model{Provider: "p", ID: "text", Input: []string{ai.InputText}}
	visionModel = &ai.Model{Provider: "p", ID: "eyes", Input: []string{ai.InputText, ai.InputImage}}
	otherVision = &ai.Model{Provider: "q", ID: "eyes2", Input: []string{ai.InputText, ai.InputImage}}
)

func answer(text string) *ai.AssistantMessage {
	return &ai.AssistantMessage{Content: ai.ContentList{ai.Text(text)}, StopReason: ai.StopReasonStop}
}

// pngBytes is a small PNG image.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func newEnv(t *testing.T) *tool.Env {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	env.Settings.InspectImage = true
	if err := os.WriteFile(filepath.Join(env.Cwd, "shot.png"), pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return env
}

func run(t *testing.T, tl *Tool, path, question string) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"path": path, "question": question})
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The image and the question reach the chosen model as one user message
// (image first), under the system prompt; the answer and the details
// come back.
func TestAsksTheVisionModel(t *testing.T) {
	env := newEnv(t)
	h := &fakeHost{models: []*ai.Model{textModel, visionModel}, roles: map[string]string{"vision": "eyes"}, active: textModel, reply: answer("  A blank image.\n")}
	res := run(t, New(env, h), "shot.png", "What is shown?")
	if res.IsError || res.FirstText() != "A blank image." {
		t.Fatalf("%+v %q", res.IsError, res.FirstText())
	}
	d := res.Details.(*Details)
	if d.Model != "p/eyes" || d.MIMEType != "image/png" || d.ImagePath != filepath.Join(env.Cwd, "shot.png") {
		t.Fatalf("details %+v", d)
	}
	msg := h.got.Messages[0].(*ai.UserMessage)
	img, ok := msg.Content[0].(*ai.ImageContent)
	if h.got.Model != visionModel || h.got.SystemPrompt == "" || !ok || img.MIMEType != "image/png" || len(msg.Content) != 2 {
		t.Fatalf("request %+v", h.got)
	}
	if q, ok := msg.Content[1].(*ai.TextContent); !ok || q.Text != "What is shown?" {
		t.Fatalf("question %+v", msg.Content[1])
	}
}

// The model is the vision role's, else the default role's, else the
// active model, else the first model with credentials.
func TestModelOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		roles  map[string]string
		active *ai.Model
		want   string
	}{
		{"vision role", map[string]string{"vision": "eyes2", "default": "eyes"}, visionModel, "q/eyes2"},
		{"default role", map[string]string{"vision": "missing", "default": "eyes2"}, visionModel, "q/eyes2"},
		{"active model", nil, otherVision, "q/eyes2"},
		{"first available", nil, nil, "p/eyes"},
	} {
		h := &fakeHost{models: []*ai.Model{visionModel, otherVision}, roles: c.roles, active: c.active, reply: answer("ok")}
		res := run(t, New(newEnv(t), h), "shot.png", "?")
		if d, _ := res.Details.(*Details); res.IsError || d.Model != c.want {
			t.Errorf("%s: %q %+v", c.name, res.FirstText(), res.Details)
		}
	}
}

// Every refusal and failure the model can see, in the order they are
// checked.
func TestErrors(t *testing.T) {
	env := newEnv(t)
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(env.Cwd, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("fake.png", []byte("this is text, not a PNG"))
	big, err := os.Create(filepath.Join(env.Cwd, "big.png"))
	if err != nil {
		t.Fatal(err)
	}
	big.Write(pngBytes(t))
	big.Truncate(MaxImageBytes + 5<<20)
	big.Close()

	if err := syscall.Mkfifo(filepath.Join(env.Cwd, "pipe.png"), 0o644); err != nil {
		t.Fatal(err)
	}

	ok := func() *fakeHost { return &fakeHost{models: []*ai.Model{visionModel}, reply: answer("fine")} }
	cases := []struct {
		name string
		host Host
		path string
		prep func()
	}{
		{"images blocked", ok(), "shot.png", func() { env.Settings.BlockImages = true }},
		{"no registry", nil, "shot.png", func() { env.Settings.BlockImages = false }},
		{"no models", &fakeHost{}, "shot.png", nil},
		{"text-only model", &fakeHost{models: []*ai.Model{textModel}}, "shot.png", nil},
		{"no key", &fakeHost{models: []*ai.Model{visionModel}, revoked: map[string]bool{"p": true}}, "shot.png", nil},
		{"missing file", ok(), "nope.png", nil},
		{"not an image", ok(), "fake.png", nil},
		{"named pipe", ok(), "pipe.png", nil}, // refused, not opened: the open would block
		{"directory", ok(), ".", nil},
		{"too large", ok(), "big.png", nil},
		{"provider error", &fakeHost{models: []*ai.Model{visionModel}, reply: &ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: "429 rate limited"}}, "shot.png", nil},
		{"error without message", &fakeHost{models: []*ai.Model{visionModel}, reply: &ai.AssistantMessage{StopReason: ai.StopReasonError}}, "shot.png", nil},
		{"aborted response", &fakeHost{models: []*ai.Model{visionModel}, reply: &ai.AssistantMessage{StopReason: ai.StopReasonAborted}}, "shot.png", nil},
		{"no text", &fakeHost{models: []*ai.Model{visionModel}, reply: answer("  ")}, "shot.png", nil},
	}
	var b strings.Builder
	for _, c := range cases {
		if c.prep != nil {
			c.prep()
		}
		res := run(t, New(env, c.host), c.path, "?")
		if !res.IsError {
			t.Errorf("%s: no error: %q", c.name, res.FirstText())
		}
		fmt.Fprintf(&b, "## %s\n%s\n\n", c.name, res.FirstText())
	}
	golden.Check(t, filepath.Join("testdata", "errors.golden"), b.String())
}

// The format is told by content: a PNG named .jpg is sent as PNG.
func TestFormatByContent(t *testing.T) {
	env := newEnv(t)
	if err := os.Rename(filepath.Join(env.Cwd, "shot.png"), filepath.Join(env.Cwd, "photo.jpg")); err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{models: []*ai.Model{visionModel}, reply: answer("ok")}
	if res := run(t, New(env, h), "photo.jpg", "?"); res.IsError || res.Details.(*Details).MIMEType != "image/png" {
		t.Fatalf("%q %+v", res.FirstText(), res.Details)
	}
}
