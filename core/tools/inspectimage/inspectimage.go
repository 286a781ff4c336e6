// Package inspectimage is the inspect_image tool: the model asks a
// question about a local image file, and a vision-capable model answers
// it in text. The session's main model need not accept images itself.
//
// The answering model is the first of: the vision role
// (modelRoles.vision), the default role, the session's active model, the
// first model with credentials. It must accept image input and have
// credentials. The file must be a PNG, JPEG, GIF or WebP image, told by
// its content (not its name), of at most MaxImageBytes; with
// images.autoResize it is scaled down as read scales images. The image
// and the question go to that model as one user message, under a short
// system prompt of our own; its text is the result.
package inspectimage

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Name is the tool's name.
const Name = "inspect_image"

// MaxImageBytes is the largest image file the tool sends (20 MiB).
const MaxImageBytes = 20 << 20

// sniffBytes is how much of the file is read to tell its format.
const sniffBytes = 16

const description = `Asks a vision-capable model about a local image file and returns its answer as text: reading text in a screenshot, checking a UI state, describing what a picture shows.

- path: the image file (PNG, JPEG, GIF or WebP, recognised by content; at most 20 MB).
- question: say exactly what to look at, any constraints ("copy the text verbatim", "say so when unsure") and the shape of the answer (bullets, table, JSON, one line).
- Prefer it to read when the point is understanding the image; the answer is text only, no image comes back.
- It fails with a clear message when images are blocked by settings (images.blockImages) or no configured model accepts images (set modelRoles.vision).

Example: {"path": "screenshots/login.png", "question": "Why is the Sign in button disabled? Answer with observations, likely cause, confidence."}`

// systemPrompt frames the answering model's job.
const systemPrompt = `You look at one image and answer the question asked about it.
- Tell what you see apart from what you infer; say when something is unclear instead of guessing, and never invent text or details you cannot make out.
- Unless the question asks for another format, answer in three short parts: the answer, the evidence in the image, and any doubts.
- When asked for text, copy it exactly as shown (case, punctuation), marking parts you cannot read.
- For screenshots, describe the visible state (labels, toggles, errors, disabled controls) before suggesting causes.
Be brief.`

// Host is what the tool needs of its session: the models it may ask and
// a way to ask one.
type Host interface {
	// Available lists the models whose provider has credentials, in the
	// registry's order.
	Available() []*ai.Model
	// Resolve returns the model a pattern names — "pi/<role>" is a model
	// role of the settings (modelRoles), anything else a registry query —
	// when it has credentials; nil otherwise.
	Resolve(pattern string) *ai.Model
	// Active returns the session's current model; nil when none.
	Active() *ai.Model
	// HasAuth reports whether the model's provider has credentials.
	HasAuth(m *ai.Model) bool
	// Complete sends req (its Model set) and returns the final message;
	// nil when ctx ends first.
	Complete(ctx context.Context, req *ai.Request) *ai.AssistantMessage
}

// Details are what a successful call reports besides the answer.
type Details struct {
	Model     string `json:"model"`     // "<provider>/<id>" of the model that answered
	ImagePath string `json:"imagePath"` // the image file, absolute
	MIMEType  string `json:"mimeType"`  // the format sent (after any resizing)
}

// params are the tool's arguments: path and question, nothing else.
var params = func() *tool.Schema {
	s := tool.Object(map[string]*tool.Schema{
		"path":     {Type: "string", Description: "image path", Examples: []any{"image.png"}},
		"question": {Type: "string", Description: "question about image", Examples: []any{"What is in this image?"}},
	}, "path", "question")
	s.AdditionalProperties = tool.Ptr(false)
	return s
}()

// Tool is the inspect_image tool of a session.
type Tool struct {
	env  *tool.Env
	host Host
}

// New returns the tool for env asking the models of host (nil: the
// session has no model registry, and every call says so).
func New(env *tool.Env, host Host) *Tool { return &Tool{env: env, host: host} }

// Available reports whether the session offers the tool:
// inspect_image.enabled.
func Available(env *tool.Env) bool { return env.Settings.InspectImage }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        Name,
		Label:       "InspectImage",
		Description: description,
		Parameters:  params,
		Concurrency: tool.Shared,
		ReadOnly:    true,
	}
}

// Execute picks the model, loads the image and asks the question.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var in struct {
		Path     string `json:"path"`
		Question string `json:"question"`
	}
	if err := args.Decode(&in); err != nil {
		return nil, err
	}
	if t.env.Settings.BlockImages {
		return nil, tool.Errorf("Image submission is disabled by settings (images.blockImages=true). Disable it to use inspect_image.")
	}
	model, err := t.model()
	if err != nil {
		return nil, err
	}
	path := t.env.Resolve(in.Path)
	mimeType, data, err := t.load(path)
	if err != nil {
		return nil, err
	}
	req := &ai.Request{
		Model:        model,
		SystemPrompt: systemPrompt,
		Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{
			&ai.ImageContent{Data: base64.StdEncoding.EncodeToString(data), MIMEType: mimeType},
			ai.Text(in.Question),
		}, Timestamp: time.Now().UnixMilli()}},
		Thinking: ai.ThinkingOff,
	}
	msg := t.host.Complete(ctx, req)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case msg == nil:
		return nil, tool.Errorf("inspect_image request failed.")
	case msg.StopReason == ai.StopReasonError:
		if msg.ErrorMessage != "" {
			return nil, &tool.Error{Msg: msg.ErrorMessage}
		}
		return nil, tool.Errorf("inspect_image request failed.")
	case msg.StopReason == ai.StopReasonAborted:
		return nil, tool.Errorf("inspect_image request aborted.")
	}
	text := strings.TrimSpace(msg.Text())
	if text == "" {
		return nil, tool.Errorf("inspect_image model returned no text output.")
	}
	return tool.TextResult(text, &Details{Model: model.Provider + "/" + model.ID, ImagePath: path, MIMEType: mimeType}), nil
}

// model picks the answering model: the vision role, the default role,
// the active model, the first model with credentials.
func (t *Tool) model() (*ai.Model, error) {
	if t.host == nil {
		return nil, tool.Errorf("Model registry is unavailable for inspect_image.")
	}
	avail := t.host.Available()
	if len(avail) == 0 {
		return nil, tool.Errorf("No models available for inspect_image.")
	}
	m := t.host.Resolve("pi/vision")
	if m == nil {
		m = t.host.Resolve("pi/default")
	}
	if m == nil {
		if a := t.host.Active(); a != nil && t.host.HasAuth(a) {
			m = a
		}
	}
	if m == nil {
		m = avail[0]
	}
	if m == nil {
		return nil, tool.Errorf("Unable to resolve a model for inspect_image.")
	}
	if !m.SupportsImages() {
		return nil, tool.Errorf("Resolved model %s/%s does not support image input. Configure a vision-capable model for modelRoles.vision.", m.Provider, m.ID)
	}
	if !t.host.HasAuth(m) {
		return nil, tool.Errorf("No API key available for %s/%s. Configure credentials for this provider or choose another vision-capable model.", m.Provider, m.ID)
	}
	return m, nil
}

// load reads the image at path: its format from its first bytes, then
// its size, then its data (resized with images.autoResize).
func (t *Tool) load(path string) (mimeType string, data []byte, err error) {
	// A named pipe, socket or device is refused before anything opens it:
	// opening a named pipe blocks until a writer comes.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return "", nil, tool.Errorf("Cannot read image %s: it is not a regular file (it is %s); inspect_image reads image files only", t.env.DisplayPath(path), atomicfile.Kind(fi.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil, tool.Errorf("Image file not found: %s", t.env.DisplayPath(path))
		}
		return "", nil, tool.Errorf("Cannot read image %s: %v", t.env.DisplayPath(path), err)
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	n, _ := io.ReadFull(f, head)
	if read.SniffImage(head[:n]) == "" {
		return "", nil, tool.Errorf("inspect_image only supports PNG, JPEG, GIF, and WEBP files detected by file content.")
	}
	fi, err := f.Stat()
	if err != nil {
		return "", nil, tool.Errorf("Cannot read image %s: %v", t.env.DisplayPath(path), err)
	}
	if fi.Size() > MaxImageBytes {
		return "", nil, tooLarge(fi.Size())
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", nil, tool.Errorf("Cannot read image %s: %v", t.env.DisplayPath(path), err)
	}
	data, err = io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return "", nil, tool.Errorf("Cannot read image %s: %v", t.env.DisplayPath(path), err)
	}
	if len(data) > MaxImageBytes { // grew since the stat
		return "", nil, tooLarge(int64(len(data)))
	}
	mimeType, data = read.ImageForModel(data, t.env.Settings.ImagesAutoResize)
	return mimeType, data, nil
}

// tooLarge is the error for an image over MaxImageBytes.
func tooLarge(size int64) error {
	return &tool.Error{Msg: fmt.Sprintf("Image file too large: %s exceeds %s limit.", tool.FormatSize(size), tool.FormatSize(MaxImageBytes))}
}
