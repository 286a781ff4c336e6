package read

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// readMedia reads a local image or document. handled is false for any
// other file, which is then read as text. Images come back as a note plus
// an image block; documents as their converted text, paged like a file
// when sel names lines and otherwise cut to the shared limits.
func (t *Tool) readMedia(ctx context.Context, r *resolved, sel Selector, d *Details) (text string, extra []tool.Content, handled bool, err error) {
	if !r.info.Mode().IsRegular() {
		return "", nil, false, nil
	}
	ext := documentExt(strings.ToLower(filepath.Ext(r.abs)))
	head := make([]byte, imageSniffHeaders)
	if ext == "" {
		f, err := openFile(r.abs)
		if err != nil {
			return "", nil, false, nil // readFile reports it
		}
		n, _ := io.ReadFull(f, head)
		f.Close()
		head = head[:n]
		if sniffImage(head) == "" {
			return "", nil, false, nil
		}
		text, img, err := t.readImage(r)
		if err != nil {
			return "", nil, true, err
		}
		if img != nil {
			extra = append(extra, img)
		}
		return text, extra, true, nil
	}
	text, err = t.readDocument(ctx, r, ext, sel, d)
	return text, nil, true, err
}

// readImage checks, decodes and (per images.autoResize) resizes a local
// image. With inspect_image.enabled only its description is returned.
func (t *Tool) readImage(r *resolved) (string, *tool.ImageContent, error) {
	if r.info.Size() > maxImageBytes {
		return "", nil, errImageTooLarge(r.display, r.info.Size())
	}
	data, err := os.ReadFile(r.abs)
	if err != nil {
		return "", nil, tool.Errorf("Cannot read %s: %v", r.display, unwrapPathError(err))
	}
	if int64(len(data)) > maxImageBytes { // grew since the stat
		return "", nil, errImageTooLarge(r.display, int64(len(data)))
	}
	p, err := prepareImage(data, r.display, imageTargetBytes, false, t.env.Settings.ImagesAutoResize)
	if err != nil {
		return "", nil, tool.Errorf("%s", err.Error())
	}
	if t.env.Settings.InspectImage {
		return p.metadata(r.display), nil, nil
	}
	return p.note(r.display, imageTargetBytes), p.content(), nil
}

// readDocument converts a local document to text. A conversion failure
// is a notice in the text, not an error.
func (t *Tool) readDocument(ctx context.Context, r *resolved, ext string, sel Selector, d *Details) (string, error) {
	if r.info.Size() > maxDocumentBytes {
		return "[Cannot read " + ext + " file: " + r.display + " is " + tool.FormatSize(r.info.Size()) +
			"; documents up to " + tool.FormatSize(maxDocumentBytes) + " are converted]", nil
	}
	f, err := openFile(r.abs)
	if err != nil {
		return "", tool.Errorf("Cannot read %s: %v", r.display, unwrapPathError(err))
	}
	defer f.Close()
	text, err := t.convertDocument(ctx, f, r.info.Size(), ext, r.abs)
	if err != nil {
		return "[Cannot read " + ext + " file: " + err.Error() + "]", nil
	}
	if sel.HasLines() {
		out, _, err := t.render(strings.NewReader(text), sel, r.display, t.env.DisplayMode(sel.Raw, true), d)
		return out, err
	}
	shown, _ := cutLongLines(strings.TrimRight(text, "\n"))
	tr := tool.TruncateHead(shown, tool.Limits{})
	win := &Window{StartLine: 1, EndLine: tr.OutputLines, TotalLines: tr.TotalLines}
	out := tr.Content
	if tr.Truncated {
		win.TruncatedBy, win.NextOffset = tr.TruncatedBy, tr.OutputLines+1
		limit := strconv.Itoa(tool.DefaultMaxLines) + "-line limit"
		if tr.TruncatedBy == "bytes" {
			limit = tool.FormatSize(tool.DefaultMaxBytes) + " limit"
		}
		out += "\n\n[Showing lines 1-" + strconv.Itoa(tr.OutputLines) + " of " + strconv.Itoa(tr.TotalLines) +
			" of the converted text (" + limit + "). Use :" + strconv.Itoa(win.NextOffset) + " to continue.]"
	}
	d.Truncation = win
	return out, nil
}

// cutLongLines shortens lines too long for the output cap to
// DefaultMaxColumn characters and returns their numbers.
func cutLongLines(s string) (string, []int) {
	if len(s) <= tool.DefaultMaxBytes-64 {
		return s, nil
	}
	lines := strings.Split(s, "\n")
	var cut []int
	for i, l := range lines {
		if len(l) > tool.DefaultMaxBytes-64 {
			lines[i], _ = tool.TruncateLine(l, tool.DefaultMaxColumn)
			cut = append(cut, i+1)
		}
	}
	if cut == nil {
		return s, nil
	}
	return strings.Join(lines, "\n"), cut
}
