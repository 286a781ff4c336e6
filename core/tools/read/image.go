package read

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // GIF decoding
	"image/jpeg"
	"image/png"
	"strconv"
	"strings"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // WebP decoding

	"github.com/gopi-agent/gopi/core/tool"
)

// Image limits. Sources over maxImageBytes are refused before they are
// read; images declaring more than maxImagePixels are refused from their
// header, before any pixel is decoded (a few bytes can declare gigabytes of
// pixels).
const (
	maxImageBytes     = 20 << 20   // largest image file or download read
	maxImagePixels    = 50_000_000 // largest width × height decoded
	imageMaxSide      = 1568       // longest side sent to the model after resizing
	imageTargetBytes  = 500 << 10  // encoded size resizing aims under (local files)
	urlImageMaxBytes  = 300 << 10  // encoded size an image fetched from a URL may have inline
	imageMinSide      = 100        // resizing stops before a side gets shorter
	imageJPEGQuality  = 75         // first JPEG encoding
	imageSniffHeaders = 16         // bytes needed to recognise a format
)

// jpegLadder are the qualities tried, in order, when the first encoding is
// too big; scaleLadder the further reductions of the fitted size.
var (
	jpegLadder  = []int{70, 60, 50, 40}
	scaleLadder = []float64{0.75, 0.5, 0.35, 0.25}
)

// sniffImage returns the MIME type of a PNG, JPEG, GIF or WebP file from
// its first bytes, or "" for anything else.
func sniffImage(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// imageMIME reports whether mediaType is an image format read understands.
func imageMIME(mediaType string) bool {
	switch mediaType {
	case "image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp":
		return true
	}
	return false
}

// imageExt reports whether ext (".png") names a supported image format.
func imageExt(ext string) bool {
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// preparedImage is an image ready for the model.
type preparedImage struct {
	srcMIME       string // format of the source
	srcBytes      int    // size of the source
	width, height int    // source dimensions
	alpha         bool   // the source has transparent pixels
	gray          bool   // the source is grayscale

	mime       string // format sent
	data       []byte // bytes sent; nil when none fit (see tooBig)
	outW, outH int    // dimensions sent
	resized    bool   // data was re-encoded
}

// imageError is an image that cannot be read; the message says why.
type imageError struct{ msg string }

func (e *imageError) Error() string { return e.msg }

// prepareImage checks and decodes data (a supported format, see
// sniffImage) and returns what to send: the original bytes when they are
// within imageMaxSide and a quarter of maxOut, otherwise (with resize) a
// re-encoding fitted into imageMaxSide×imageMaxSide and under maxOut
// bytes. Without resize the original is sent as it is. When hard is set,
// maxOut is a cap (nothing larger is sent: data stays nil), otherwise a
// target (the smallest encoding tried is sent). name is used in messages.
func prepareImage(data []byte, name string, maxOut int, hard, resize bool) (*preparedImage, error) {
	mimeType := sniffImage(data)
	if mimeType == "" {
		return nil, &imageError{"Cannot read " + name + ": not a PNG, JPEG, GIF or WebP image"}
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, &imageError{fmt.Sprintf("Cannot read %s: the %s header is corrupt (%v)", name, mimeType, err)}
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, &imageError{fmt.Sprintf("Cannot read %s: the %s header declares an empty image (%dx%d)", name, mimeType, cfg.Width, cfg.Height)}
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxImagePixels {
		return nil, &imageError{fmt.Sprintf("Cannot read %s: the image declares %dx%d pixels (%s megapixels); images over %d megapixels are not decoded",
			name, cfg.Width, cfg.Height, strconv.FormatFloat(float64(px)/1e6, 'f', 1, 64), maxImagePixels/1_000_000)}
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, &imageError{fmt.Sprintf("Cannot read %s: the %s data is corrupt (%v)", name, mimeType, err)}
	}
	p := &preparedImage{
		srcMIME: mimeType, srcBytes: len(data), width: cfg.Width, height: cfg.Height,
		alpha: !opaque(img), gray: isGray(cfg.ColorModel),
		mime: mimeType, data: data, outW: cfg.Width, outH: cfg.Height,
	}
	fits := cfg.Width <= imageMaxSide && cfg.Height <= imageMaxSide
	if !resize || fits && len(data) <= maxOut/4 {
		if hard && len(data) > maxOut {
			p.data = nil
		}
		return p, nil
	}
	p.data = nil
	tw, th := fitWithin(cfg.Width, cfg.Height, imageMaxSide)
	scaled := scaleImage(img, tw, th)
	flat := scaled
	if p.alpha {
		flat = onWhite(scaled)
	}
	// First pass: JPEG and (unless the source is a photo already) PNG,
	// the smaller wins.
	best, bestMIME := encodeJPEG(flat, imageJPEGQuality), "image/jpeg"
	if mimeType != "image/jpeg" { // a photo never gets smaller as PNG
		if pn := encodePNG(scaled); pn != nil && len(pn) < len(best) {
			best, bestMIME = pn, "image/png"
		}
	}
	if len(best) <= maxOut {
		p.setOut(best, bestMIME, tw, th)
		return p, nil
	}
	for _, q := range jpegLadder {
		if b := encodeJPEG(flat, q); len(b) <= maxOut {
			p.setOut(b, "image/jpeg", tw, th)
			return p, nil
		}
	}
	smallest, sw, sh := encodeJPEG(flat, jpegLadder[len(jpegLadder)-1]), tw, th
	for _, f := range scaleLadder {
		w, h := int(float64(tw)*f), int(float64(th)*f)
		if w < imageMinSide || h < imageMinSide {
			break
		}
		b := encodeJPEG(scaleImage(flat, w, h), jpegLadder[1])
		if len(b) <= maxOut {
			p.setOut(b, "image/jpeg", w, h)
			return p, nil
		}
		if len(b) < len(smallest) {
			smallest, sw, sh = b, w, h
		}
	}
	if !hard && smallest != nil {
		p.setOut(smallest, "image/jpeg", sw, sh)
	}
	return p, nil // with hard, nothing fitted: p.data stays nil
}

func (p *preparedImage) setOut(data []byte, mimeType string, w, h int) {
	p.data, p.mime, p.outW, p.outH, p.resized = data, mimeType, w, h, true
}

// content returns the image block to send, or nil when none fitted.
func (p *preparedImage) content() *tool.ImageContent {
	if p.data == nil {
		return nil
	}
	return &tool.ImageContent{MIMEType: p.mime, Data: base64.StdEncoding.EncodeToString(p.data)}
}

// note describes the image for the text block beside it.
func (p *preparedImage) note(name string, maxOut int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Image %s: %s, %dx%d, %s", name, p.srcMIME, p.width, p.height, tool.FormatSize(int64(p.srcBytes)))
	switch {
	case p.data == nil:
		fmt.Fprintf(&b, ". It is not attached: it could not be made smaller than %s", tool.FormatSize(int64(maxOut)))
	case p.resized:
		fmt.Fprintf(&b, "; attached as %s, %dx%d, %s (scaled to fit %dx%d and %s)", p.mime, p.outW, p.outH,
			tool.FormatSize(int64(len(p.data))), imageMaxSide, imageMaxSide, tool.FormatSize(int64(maxOut)))
	}
	b.WriteString(".")
	return b.String()
}

// metadata describes the image without attaching it (inspect_image.enabled).
func (p *preparedImage) metadata(name string) string {
	channels := 3
	if p.gray {
		channels = 1
	}
	alpha := "no alpha"
	if p.alpha {
		channels++
		alpha = "alpha"
	}
	return fmt.Sprintf("Image %s: %s, %s, %dx%d, %d channels (%s). The image is not attached; use inspect_image with this path to ask about its content.",
		name, p.srcMIME, tool.FormatSize(int64(p.srcBytes)), p.width, p.height, channels, alpha)
}

// fitWithin scales w×h down (never up) so neither side exceeds side,
// keeping the aspect ratio.
func fitWithin(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, int(int64(h)*int64(side)/int64(w)))
	}
	return max(1, int(int64(w)*int64(side)/int64(h))), side
}

// scaleImage returns img resampled to w×h (img itself when the size is
// already right).
func scaleImage(img image.Image, w, h int) image.Image {
	if b := img.Bounds(); b.Dx() == w && b.Dy() == h {
		return img
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	xdraw.BiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), xdraw.Src, nil)
	return dst
}

// onWhite composes img over a white background (JPEG has no alpha).
func onWhite(img image.Image) image.Image {
	dst := image.NewRGBA(img.Bounds())
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(dst, dst.Bounds(), img, img.Bounds().Min, draw.Over)
	return dst
}

func encodeJPEG(img image.Image, quality int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: quality}); err != nil {
		return nil
	}
	return b.Bytes()
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil
	}
	return b.Bytes()
}

// opaque reports whether every pixel of img is fully opaque.
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}

func isGray(m color.Model) bool { return m == color.GrayModel || m == color.Gray16Model }

// errImageTooLarge is the refusal of a source over maxImageBytes.
func errImageTooLarge(name string, size int64) error {
	return &imageError{fmt.Sprintf("Image too large: %s is %s; read takes images up to %s", name, tool.FormatSize(size), tool.FormatSize(maxImageBytes))}
}

// asImageError reports whether err is an image refusal.
func asImageError(err error) (*imageError, bool) {
	var ie *imageError
	ok := errors.As(err, &ie)
	return ie, ok
}
