package read

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"

	"github.com/gopi-agent/gopi/core/tool"
)

// sniffSize is how much of a file is checked for NUL bytes.
const sniffSize = 8 * 1024

// readLocal reads a local file or directory.
func (t *Tool) readLocal(ctx context.Context, target string) (*tool.Result, error) {
	path, sel, err := SplitSelector(target)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	r, err := resolvePath(ctx, t.env, path)
	if err != nil {
		return nil, err
	}
	d := &Details{ResolvedPath: r.abs, Source: r.abs}
	var text string
	var extra []tool.Content
	if r.info.IsDir() {
		d.IsDirectory = true
		lineCap := 0
		if sel.HasLines() {
			lineCap = t.env.Settings.OpenEndedLimit()
			if sel.End > 0 {
				lineCap = sel.End - sel.Start + 1
			}
		}
		text, d.ResultLimit, err = dirTree(r.abs, t.now(), lineCap)
		if err != nil {
			return nil, err
		}
	} else {
		var handled bool
		text, extra, handled, err = t.readMedia(ctx, r, sel, d) // images and documents (media.go)
		if err == nil && !handled {
			text, err = t.readFile(ctx, r, sel, d)
		}
		if err != nil {
			return nil, err
		}
	}
	if r.suffixOf != "" {
		d.SuffixResolution = &SuffixResolution{From: r.suffixOf, To: r.suffixHit}
		text = "[Path '" + r.suffixOf + "' not found; resolved to '" + r.suffixHit + "' via suffix match]\n" + text
	}
	res := tool.TextResult(text, d)
	res.Content = append(res.Content, extra...)
	return res, nil
}

// maxFilesRead bounds the files read through the session's tool.Files (an
// editor's buffers): a larger file is paged from the disk as usual rather
// than copied whole.
const maxFilesRead = 4 << 20

// readFile shows a window of a local file and records it in the read cache.
func (t *Tool) readFile(ctx context.Context, r *resolved, sel Selector, d *Details) (string, error) {
	if !r.info.Mode().IsRegular() {
		return "", tool.Errorf("Cannot read %s: it is not a regular file (%s); read files and directories only", r.display, fileKind(r.info.Mode()))
	}
	if isNotebook(r.abs) && !sel.Raw {
		return t.readNotebook(ctx, r, sel, d)
	}
	var src io.Reader
	if t.env.Files != nil && r.info.Size() <= maxFilesRead {
		data, err := t.env.Files.ReadFile(ctx, r.abs)
		if err != nil {
			return "", tool.Errorf("Cannot read %s: %v", r.display, unwrapPathError(err))
		}
		if bytes.IndexByte(data[:min(len(data), sniffSize)], 0) >= 0 {
			return "[Cannot show " + r.display + ": binary file (" + tool.FormatSize(int64(len(data))) + ")]", nil
		}
		src = bytes.NewReader(data)
	} else {
		f, err := openFile(r.abs)
		if err != nil {
			return "", tool.Errorf("Cannot read %s: %v", r.display, unwrapPathError(err))
		}
		defer f.Close()
		head := make([]byte, sniffSize)
		n, _ := io.ReadFull(f, head)
		if bytes.IndexByte(head[:n], 0) >= 0 {
			return "[Cannot show " + r.display + ": binary file (" + tool.FormatSize(r.info.Size()) + ")]", nil
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return "", tool.Errorf("Cannot read %s: %v", r.display, err)
		}
		src = f
	}
	mode := t.env.DisplayMode(sel.Raw, false)
	if t.summaryEligible(r, sel) {
		data, ok := src.(*bytes.Reader)
		var whole []byte
		if ok {
			whole = make([]byte, data.Len())
			_, _ = data.Read(whole)
		} else if b, err := readUpTo(src, r.info.Size(), maxSummaryBytes+1); err == nil {
			whole = b
		} else {
			return "", tool.Errorf("Cannot read %s: %v", r.display, err)
		}
		if len(whole) <= maxSummaryBytes {
			if text, ok := t.summarize(ctx, r, whole, mode, d); ok {
				return text, nil
			}
		}
		src = io.MultiReader(bytes.NewReader(whole), src)
	}
	text, w, err := t.render(src, sel, r.display, mode, d)
	if err != nil {
		return "", err
	}
	if w != nil && len(w.lines) > 0 && t.env.ReadCache != nil {
		// Lines shown cut (render's isCut, which also covers every line
		// kept as a head and a hash) are not recorded: the model has not
		// seen them whole; the others are, as search records the lines it
		// shows whole.
		whole := make(map[int]string, len(w.lines))
		for i, l := range w.lines {
			if !isCut(w.size(i)) {
				whole[w.first+i] = l
			}
		}
		if len(whole) == len(w.lines) {
			total := 0
			if w.last() == w.total {
				total = w.total
			}
			t.env.ReadCache.RecordContiguous(r.abs, w.first, w.lines, total)
		} else {
			t.env.ReadCache.RecordSparse(r.abs, whole)
		}
	}
	return text, nil
}

// render pages text from src per sel and formats it in mode. It returns
// the window shown (nil when none was).
func (t *Tool) render(src io.Reader, sel Selector, name string, mode tool.DisplayMode, d *Details) (string, *window, error) {
	limit := t.env.Settings.OpenEndedLimit()
	from, maxLines := 1, limit
	if sel.HasLines() {
		from = max(1, sel.Start-leadingContext)
		if sel.End > 0 {
			maxLines = sel.End + trailingContext - from + 1
		} else {
			maxLines = limit + sel.Start - from
		}
		maxLines = min(maxLines, tool.DefaultMaxLines)
	}
	budget := max(tool.DefaultMaxBytes, maxLines*bytesPerLineBudget)
	w, err := scanWindow(src, from, maxLines, budget)
	if err != nil {
		return "", nil, tool.Errorf("Cannot read %s: %v", name, err)
	}
	// A text always has a line (an empty text one empty line), as in omp.
	if sel.HasLines() && sel.Start > w.total {
		d.Truncation = &Window{TotalLines: w.total}
		return "[Line " + strconv.Itoa(sel.Start) + " is past the end of " + name + " (" + plural(w.total, "line") +
			"). Use :" + strconv.Itoa(w.total) + " to read the last line, or :1 to read from the top.]", nil, nil
	}

	// Format rows. A row too big for the output cap is shortened for
	// display; its anchor is still computed from the whole line.
	win := &Window{StartLine: w.first, TotalLines: w.total}
	var out []byte
	for i, line := range w.lines {
		shown := line
		if isCut(w.size(i)) {
			shown, _ = tool.TruncateLine(line, tool.DefaultMaxColumn)
			win.CutLines = append(win.CutLines, w.first+i)
		}
		if i > 0 {
			out = append(out, '\n')
		}
		if ref := w.ref(mode, i); ref != "" {
			out = append(out, ref...)
			out = append(out, '|')
		}
		out = append(out, shown...)
	}
	tr := tool.TruncateHead(string(out), tool.Limits{MaxLines: tool.DefaultMaxLines, MaxBytes: tool.DefaultMaxBytes})
	shown := tr.OutputLines
	if tr.Content == "" {
		shown = 0
	}
	w.lines = w.lines[:shown]
	win.EndLine = w.first + shown - 1
	text := tr.Content
	switch {
	case tr.Truncated || w.byteLimit:
		win.TruncatedBy = "bytes"
	case w.lineLimit && !(sel.End > 0):
		win.TruncatedBy = "lines"
	}
	if win.EndLine < w.total && win.TruncatedBy != "" {
		win.NextOffset = win.EndLine + 1
		limitNote := ""
		if win.TruncatedBy == "bytes" {
			limitNote = " (" + tool.FormatSize(tool.DefaultMaxBytes) + " output limit)"
		}
		text += "\n\n[Showing lines " + strconv.Itoa(win.StartLine) + "-" + strconv.Itoa(win.EndLine) + " of " +
			strconv.Itoa(w.total) + limitNote + ". Use :" + strconv.Itoa(win.NextOffset) + " to continue.]"
	}
	for _, n := range win.CutLines {
		if n <= win.EndLine {
			text += "\n[Line " + strconv.Itoa(n) + " is too long to show whole; it was cut to " +
				strconv.Itoa(tool.DefaultMaxColumn) + " characters.]"
		}
	}
	d.Truncation = win
	return text, w, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// fileKind names a non-regular file mode for error messages.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a plain file"
}

// readUpTo reads src to its end or to limit bytes, whichever comes first,
// sizing the buffer for a file of size bytes.
func readUpTo(src io.Reader, size, limit int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, min(size, limit)+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(src, limit))
	return buf.Bytes(), err
}
