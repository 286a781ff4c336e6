package browser

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/image/draw"

	"github.com/gopi-agent/gopi/core/tool"
)

// Limits of the copy of a screenshot sent to the model, as omp's.
const (
	shotMaxWidth  = 1024
	shotMaxHeight = 1024
	shotMaxBytes  = 150 << 10
	shotJPEG      = 70
)

// Screenshot is what is kept of one screenshot (details.screenshots).
type Screenshot struct {
	Dest     string `json:"dest"`     // where the file was written
	MIMEType string `json:"mimeType"` // of the file written
	Bytes    int    `json:"bytes"`    // size of the file written
	Width    int    `json:"width"`    // of the copy sent to the model
	Height   int    `json:"height"`
}

// modelImage is a screenshot fitted for the model.
type modelImage struct {
	data          []byte
	mime          string
	width, height int
	origW, origH  int
}

// fitForModel scales the PNG shot into shotMaxWidth×shotMaxHeight and
// encodes it as PNG, or JPEG when the PNG is over shotMaxBytes.
func fitForModel(shot []byte) (modelImage, error) {
	src, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return modelImage{}, fmt.Errorf("decode the screenshot: %w", err)
	}
	b := src.Bounds()
	m := modelImage{origW: b.Dx(), origH: b.Dy(), width: b.Dx(), height: b.Dy(), data: shot, mime: "image/png"}
	scale := min(1, float64(shotMaxWidth)/float64(b.Dx()), float64(shotMaxHeight)/float64(b.Dy()))
	img := src
	if scale < 1 {
		m.width, m.height = max(1, int(float64(b.Dx())*scale+0.5)), max(1, int(float64(b.Dy())*scale+0.5))
		dst := image.NewRGBA(image.Rect(0, 0, m.width, m.height))
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
		img = dst
		var buf bytes.Buffer
		if err := png.Encode(&buf, dst); err != nil {
			return modelImage{}, err
		}
		m.data = buf.Bytes()
	}
	if len(m.data) > shotMaxBytes {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: shotJPEG}); err != nil {
			return modelImage{}, err
		}
		m.data, m.mime = buf.Bytes(), "image/jpeg"
	}
	return m, nil
}

// saveShot writes a screenshot as omp does: full size to save (relative
// to the session's directory) or into browser.screenshotDir, else the
// model's copy to a temporary file. It returns the record and the text
// lines that describe it.
func saveShot(ctx context.Context, env *tool.Env, gate SaveGate, save string, full []byte, m modelImage) (Screenshot, []string, error) {
	dest, fullRes := "", true
	switch {
	case save != "":
		dest = env.Resolve(save)
	case env.Settings.Browser.ScreenshotDir != "":
		stamp := strings.NewReplacer(":", "-", ".", "-").Replace(time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
		dest = filepath.Join(env.Resolve(env.Settings.Browser.ScreenshotDir), "screenshot-"+strings.TrimSuffix(stamp, "Z")+".png")
	default:
		fullRes = false
		dest = filepath.Join(os.TempDir(), fmt.Sprintf("gopi-sshots-%d.png", time.Now().UnixNano()))
	}
	data, mime, err := m.data, m.mime, error(nil)
	if fullRes {
		data, mime = full, "image/png"
	}
	// A file the model or the settings name (not the temporary copy) is a
	// change to the user's files: it passes the session's gate as a write
	// call (plan mode, permission), before any directory is made.
	write := func() error {
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return fmt.Errorf("screenshot directory: %w", err)
		}
		if err := env.WriteFile(ctx, dest, data, 0o644); err != nil {
			return fmt.Errorf("save the screenshot: %w", err)
		}
		return nil
	}
	switch {
	case !fullRes:
		err = write()
	case gate != nil:
		err = gate(ctx, dest, len(data), write)
	default:
		if err = env.CheckPlanWrite(dest); err == nil {
			err = write()
		}
	}
	if err != nil {
		return Screenshot{}, nil, err
	}
	lines := []string{"Screenshot captured"}
	if fullRes {
		lines = append(lines, fmt.Sprintf("Saved: %s (%.2f KB) to %s", mime, float64(len(data))/1024, dest),
			fmt.Sprintf("Model: %s (%.2f KB, %dx%d)", m.mime, float64(len(m.data))/1024, m.width, m.height))
	} else {
		lines = append(lines, fmt.Sprintf("Format: %s (%.2f KB)", m.mime, float64(len(m.data))/1024),
			fmt.Sprintf("Dimensions: %dx%d", m.width, m.height))
	}
	if m.width != m.origW || m.height != m.origH {
		lines = append(lines, fmt.Sprintf("[Image: original %dx%d, displayed at %dx%d. Multiply coordinates by %.2f to map to original image.]",
			m.origW, m.origH, m.width, m.height, float64(m.origW)/float64(m.width)))
	}
	return Screenshot{Dest: dest, MIMEType: mime, Bytes: len(data), Width: m.width, Height: m.height}, lines, nil
}
