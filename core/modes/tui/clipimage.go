package tui

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// Limits of reading an image from the clipboard.
const (
	clipboardTimeout  = 5 * time.Second // one call of wl-paste or xclip
	clipboardMaxBytes = 50 << 20        // a larger "image" is refused
)

// clipboardTypes are the image types a model takes, in the order they are
// preferred when the clipboard offers several.
var clipboardTypes = []string{"image/png", "image/jpeg", "image/webp", "image/gif"}

// Why no image came from the clipboard.
var (
	errNoClipboard = errors.New("No clipboard (no DISPLAY or WAYLAND_DISPLAY): use terminal paste for text")
	errNoClipTool  = errors.New("Image paste needs wl-paste (Wayland) or xclip (X11)")
	errNoImage     = errors.New("No image in clipboard (use terminal paste for text)")
)

// imagePastedMsg carries an image read from the clipboard.
type imagePastedMsg struct {
	img *ai.ImageContent
	err error
}

// pasteImage is Ctrl+V: the clipboard's image (read with wl-paste under
// Wayland, xclip under X11, as omp reads the system clipboard) is
// attached to the message being typed, and "[Image #N] " marks it in the
// editor.
func (m *model) pasteImage() tea.Cmd {
	ctx, environ := m.ctx, m.opts.Environ
	resize := m.s.Config().Settings.Bool("images.autoResize")
	m.setNotice("Reading the clipboard…")
	return func() tea.Msg {
		data, err := readClipboardImage(ctx, environ)
		if err != nil {
			return imagePastedMsg{err: err}
		}
		mime, out := read.ImageForModel(data, resize)
		if mime == "" {
			return imagePastedMsg{err: errors.New("The clipboard's image is not PNG, JPEG, GIF or WebP: copy it in one of those")}
		}
		return imagePastedMsg{img: &ai.ImageContent{Data: base64.StdEncoding.EncodeToString(out), MIMEType: mime}}
	}
}

// onImagePasted attaches a pasted image, or says why there is none.
func (m *model) onImagePasted(msg imagePastedMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice(msg.err.Error())
		return nil
	}
	m.keys.images = append(m.keys.images, msg.img)
	m.ed.ta.InsertString(fmt.Sprintf("[Image #%d] ", len(m.keys.images)))
	m.setNotice("")
	return nil
}

// takeImages hands over the images pasted for the message being sent.
func (m *model) takeImages() []*ai.ImageContent {
	imgs := m.keys.images
	m.keys.images = nil
	return imgs
}

// readClipboardImage reads the clipboard's image with the tool of the
// display server environ names: its best type among clipboardTypes.
func readClipboardImage(ctx context.Context, environ []string) ([]byte, error) {
	var list, get []string
	var tool string
	switch {
	case envValue(environ, "WAYLAND_DISPLAY") != "":
		tool, list, get = "wl-paste", []string{"--list-types"}, []string{"--no-newline", "--type"}
	case envValue(environ, "DISPLAY") != "":
		tool, list, get = "xclip", []string{"-selection", "clipboard", "-t", "TARGETS", "-o"}, []string{"-selection", "clipboard", "-o", "-t"}
	default:
		return nil, errNoClipboard
	}
	path := lookPathIn(tool, envValue(environ, "PATH"))
	if path == "" {
		return nil, errNoClipTool
	}
	types, err := runClipboard(ctx, environ, path, list...)
	if err != nil {
		return nil, errNoImage // an empty clipboard makes both tools fail
	}
	offered := strings.Fields(string(types))
	for _, t := range clipboardTypes {
		if !slices.Contains(offered, t) {
			continue
		}
		data, err := runClipboard(ctx, environ, path, append(get, t)...)
		if err != nil {
			return nil, fmt.Errorf("%s could not read the clipboard's %s: %w", tool, t, err)
		}
		if len(data) == 0 {
			break
		}
		return data, nil
	}
	return nil, errNoImage
}

// runClipboard runs a clipboard tool and returns its output.
func runClipboard(ctx context.Context, environ []string, path string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, clipboardTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = environ
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limitedWriter{w: &out, n: clipboardMaxBytes}, &stderr
	childproc.PrepareCancelGroup(cmd)
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%w: %s", err, msg)
		}
		return nil, err
	}
	if out.Len() >= clipboardMaxBytes {
		return nil, fmt.Errorf("the clipboard holds more than %d MB", clipboardMaxBytes>>20)
	}
	return out.Bytes(), nil
}

// limitedWriter keeps at most n bytes and drops the rest.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// envValue is the value of key in environ ("" when unset).
func envValue(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// lookPathIn finds an executable named name in the directories of path
// (a PATH value); "" when there is none.
func lookPathIn(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
