package read

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// pdftotextTimeout bounds one run of the pdftotext fallback.
const pdftotextTimeout = 30 * time.Second

// convertPDF extracts a PDF's text with the pure-Go reader and, when that
// fails or finds no text, with pdftotext if it is installed.
func (t *Tool) convertPDF(ctx context.Context, r io.ReaderAt, size int64, file string) (string, error) {
	text, err := pdfReaderText(ctx, r, size)
	if err == nil && strings.TrimSpace(text) != "" {
		return text, nil
	}
	bin, lookErr := t.caps.pdftotext()
	if lookErr != nil {
		if err != nil {
			return "", fmt.Errorf("the PDF could not be parsed (%v), and pdftotext (Debian package poppler-utils) is not installed to try instead", err)
		}
		return "", errors.New("no text found; the pages may be scanned images, and pdftotext (Debian package poppler-utils) is not installed to try instead")
	}
	alt, altErr := runPDFToText(ctx, bin, r, size, file)
	switch {
	case altErr != nil && err != nil:
		return "", fmt.Errorf("the PDF could not be parsed (%v; pdftotext: %v)", err, altErr)
	case altErr != nil:
		return "", fmt.Errorf("no text found (pdftotext: %v)", altErr)
	case strings.TrimSpace(alt) == "":
		return "", errors.New("no text found; the pages may be scanned images")
	}
	return alt, nil
}

// pdfReaderText extracts the text of every page with
// github.com/ledongthuc/pdf, laying glyphs out in lines by position.
func pdfReaderText(ctx context.Context, r io.ReaderAt, size int64) (text string, err error) {
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("%v", p)
		}
	}()
	rd, err := pdf.NewReader(r, size)
	if err != nil {
		return "", err
	}
	var out docText
	pages := rd.NumPage()
	for i := 1; i <= pages && !out.cut; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		page := rd.Page(i)
		if page.V.IsNull() {
			continue
		}
		body := pageText(page)
		if pages > 1 {
			_ = out.add("--- Page " + strconv.Itoa(i) + " ---\n")
		}
		_ = out.add(body + "\n\n")
	}
	return out.result(), nil
}

// pageText lays out one page's glyphs: a new line where the baseline
// moves, a space where a gap opens between glyphs. Pages whose content
// the reader cannot lay out fall back to its plain text.
func pageText(page pdf.Page) (s string) {
	defer func() {
		if recover() != nil {
			s, _ = page.GetPlainText(nil)
			s = strings.TrimSpace(s)
		}
	}()
	glyphs := page.Content().Text
	var b strings.Builder
	var prev *pdf.Text
	for i := range glyphs {
		g := &glyphs[i]
		if g.S == "\n" || g.S == "" {
			continue
		}
		if prev != nil {
			size := math.Max(math.Max(prev.FontSize, g.FontSize), 1)
			switch {
			case math.Abs(g.Y-prev.Y) > size*0.5:
				b.WriteByte('\n')
				if math.Abs(g.Y-prev.Y) > size*2 {
					b.WriteByte('\n')
				}
			case prev.W > 0 && g.X-(prev.X+prev.W) > size*0.15,
				prev.W == 0 && g.X > prev.X+size*0.1:
				if g.S != " " && prev.S != " " {
					b.WriteByte(' ')
				}
			}
		}
		b.WriteString(g.S)
		prev = g
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// runPDFToText runs pdftotext on file (or on a temporary copy of r when
// the PDF is not on disk) and returns its UTF-8 output, cut at
// maxDocumentText.
func runPDFToText(ctx context.Context, bin string, r io.ReaderAt, size int64, file string) (string, error) {
	if file == "" {
		tmp, err := os.CreateTemp("", "gopi-read-*.pdf")
		if err != nil {
			return "", err
		}
		defer os.Remove(tmp.Name())
		_, err = io.Copy(tmp, io.NewSectionReader(r, 0, size))
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
		file = tmp.Name()
	}
	ctx, cancel := context.WithTimeout(ctx, pdftotextTimeout)
	defer cancel()
	var stdout capWriter
	stdout.max = maxDocumentText
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-q", "-enc", "UTF-8", file, "-")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	childproc.Prepare(cmd)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("stopped after %s", pdftotextTimeout)
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("%v: %s", err, msg)
		}
		return "", err
	}
	var out docText
	_ = out.add(strings.ReplaceAll(stdout.String(), "\f", "\n\n"))
	out.cut = out.cut || stdout.cut
	return out.result(), nil
}

// capWriter keeps the first max bytes written to it.
type capWriter struct {
	bytes.Buffer
	max int
	cut bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - w.Len(); len(p) > room {
		w.Buffer.Write(p[:max(room, 0)])
		w.cut = true
		return len(p), nil
	}
	return w.Buffer.Write(p)
}
