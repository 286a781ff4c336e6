package read

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// noisy returns a w×h image of varied colours (poorly compressible).
func noisy(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	seed := uint32(7)
	for i := 0; i < len(img.Pix); i += 4 {
		seed = seed*1664525 + 1013904223
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(seed>>24), byte(seed>>16), byte(seed>>8), 255
	}
	return img
}

func encoded(t *testing.T, format string, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		err = gif.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func imageEnv(t *testing.T) *tool.Env {
	env := tool.NewEnv(t.TempDir())
	env.Settings.ImagesAutoResize = true
	return env
}

func TestReadImageFormats(t *testing.T) {
	t.Parallel()
	env := imageEnv(t)
	small := noisy(40, 30)
	webp, err := os.ReadFile("testdata/media/gopher.webp")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"a.png":  encoded(t, "png", small),
		"b.jpg":  encoded(t, "jpeg", small),
		"c.gif":  encoded(t, "gif", small),
		"d.webp": webp,
		"e.dat":  encoded(t, "png", small), // the bytes decide, not the name
	}
	want := map[string]string{"a.png": "image/png", "b.jpg": "image/jpeg", "c.gif": "image/gif", "d.webp": "image/webp", "e.dat": "image/png"}
	for name, data := range files {
		writeDoc(t, env, name, data)
		res := call(t, env, name)
		if res.IsError || len(res.Content) != 2 {
			t.Fatalf("%s: %q", name, res.FirstText())
		}
		ic := res.Content[1].(*tool.ImageContent)
		sent, _ := base64.StdEncoding.DecodeString(ic.Data)
		if ic.MIMEType != want[name] || !bytes.Equal(sent, data) {
			t.Errorf("%s: sent %s (%d bytes), want the original %s", name, ic.MIMEType, len(sent), want[name])
		}
		if name != "d.webp" && res.FirstText() != "Image "+name+": "+want[name]+", 40x30, "+tool.FormatSize(int64(len(data)))+"." {
			t.Errorf("%s: note %q", name, res.FirstText())
		}
	}
	if got := call(t, env, "d.webp").FirstText(); !strings.HasPrefix(got, "Image d.webp: image/webp, ") {
		t.Errorf("webp note %q", got)
	}
}

func TestReadImageResized(t *testing.T) {
	t.Parallel()
	env := imageEnv(t)
	writeDoc(t, env, "wide.png", encoded(t, "png", noisy(3000, 1000)))
	res := call(t, env, "wide.png")
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("%q", res.FirstText())
	}
	ic := res.Content[1].(*tool.ImageContent)
	data, _ := base64.StdEncoding.DecodeString(ic.Data)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 1568 || cfg.Height != 522 {
		t.Fatalf("sent %dx%d (%v)", cfg.Width, cfg.Height, err)
	}
	if !strings.Contains(res.FirstText(), "Image wide.png: image/png, 3000x1000, ") || !strings.Contains(res.FirstText(), "; attached as "+ic.MIMEType+", 1568x522, ") {
		t.Fatalf("note %q", res.FirstText())
	}
	if len(data) > imageTargetBytes {
		t.Fatalf("sent %d bytes", len(data))
	}

	// A transparent image keeps its shape; JPEG output is flattened on white.
	alpha := image.NewNRGBA(image.Rect(0, 0, 2000, 2000))
	for y := range 2000 {
		for x := range 2000 {
			alpha.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x + y), uint8(x ^ y)})
		}
	}
	p, err := prepareImage(encoded(t, "png", alpha), "a.png", imageTargetBytes, false, true)
	if err != nil || !p.alpha || p.outW != 1568 || p.outH != 1568 || len(p.data) > imageTargetBytes {
		t.Fatalf("alpha: %+v %v", p, err)
	}

	// Without images.autoResize the original goes as it is.
	env.Settings.ImagesAutoResize = false
	res = call(t, env, "wide.png")
	ic = res.Content[1].(*tool.ImageContent)
	data, _ = base64.StdEncoding.DecodeString(ic.Data)
	if orig, _ := os.ReadFile(filepath.Join(env.Cwd, "wide.png")); !bytes.Equal(data, orig) {
		t.Fatal("autoResize off: the image was changed")
	}
}

func TestReadImageInspectMode(t *testing.T) {
	t.Parallel()
	env := imageEnv(t)
	env.Settings.InspectImage = true
	writeDoc(t, env, "g.png", encoded(t, "png", image.NewGray(image.Rect(0, 0, 8, 4))))
	res := call(t, env, "g.png")
	if len(res.Content) != 1 || res.FirstText() != "Image g.png: image/png, "+tool.FormatSize(int64(len(encoded(t, "png", image.NewGray(image.Rect(0, 0, 8, 4))))))+", 8x4, 1 channels (no alpha). The image is not attached; use inspect_image with this path to ask about its content." {
		t.Fatalf("%q", res.FirstText())
	}
}

// pngHeader returns a PNG signature and IHDR chunk declaring w×h RGBA.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestReadImageBombsAndCorruption(t *testing.T) {
	env := imageEnv(t)
	// 100000×100000 RGBA would be 40 GB decoded; the header alone refuses it.
	writeDoc(t, env, "bomb.png", append(pngHeader(100000, 100000), make([]byte, 64)...))
	before := totalAlloc()
	res := call(t, env, "bomb.png")
	if !res.IsError || res.FirstText() != "Cannot read bomb.png: the image declares 100000x100000 pixels (10000.0 megapixels); images over 50 megapixels are not decoded" {
		t.Fatalf("bomb: %q", res.FirstText())
	}
	if grew := totalAlloc() - before; grew > 16<<20 {
		t.Fatalf("allocated %d MiB refusing a bomb", grew>>20)
	}

	// A 4 GB file (sparse) is refused from its size, before it is read.
	f, err := os.Create(filepath.Join(env.Cwd, "huge.png"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write(pngHeader(1000, 1000))
	if err := f.Truncate(4 << 30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	res = call(t, env, "huge.png")
	if !res.IsError || res.FirstText() != "Image too large: huge.png is 4.0GB; read takes images up to 20.0MB" {
		t.Fatalf("huge: %q", res.FirstText())
	}

	writeDoc(t, env, "header.png", []byte("\x89PNG\r\n\x1a\ngarbage"))
	res = call(t, env, "header.png")
	if !res.IsError || !strings.HasPrefix(res.FirstText(), "Cannot read header.png: the image/png header is corrupt (") {
		t.Fatalf("bad header: %q", res.FirstText())
	}
	good := encoded(t, "png", noisy(50, 50))
	writeDoc(t, env, "cut.png", good[:len(good)/2])
	res = call(t, env, "cut.png")
	if !res.IsError || !strings.HasPrefix(res.FirstText(), "Cannot read cut.png: the image/png data is corrupt (") {
		t.Fatalf("truncated data: %q", res.FirstText())
	}
	writeDoc(t, env, "zero.gif", []byte("GIF89a\x00\x00\x00\x00\x00\x00\x00;"))
	res = call(t, env, "zero.gif")
	if !res.IsError || res.FirstText() != "Cannot read zero.gif: the image/gif header declares an empty image (0x0)" {
		t.Fatalf("empty gif: %q", res.FirstText())
	}
}

func TestFitWithin(t *testing.T) {
	t.Parallel()
	for _, c := range [][4]int{{3000, 1000, 1568, 522}, {1000, 3000, 522, 1568}, {100, 50, 100, 50}, {5000, 1, 1568, 1}} {
		if w, h := fitWithin(c[0], c[1], imageMaxSide); w != c[2] || h != c[3] {
			t.Errorf("fitWithin(%d, %d) = %d, %d; want %d, %d", c[0], c[1], w, h, c[2], c[3])
		}
	}
	if sniffImage([]byte("RIFF\x00\x00\x00\x00WEBPVP8 ")) != "image/webp" || sniffImage([]byte("RIFF\x00\x00\x00\x00WAVE")) != "" {
		t.Fatal("sniffImage")
	}
}
