package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/bash"
)

// Texts the model sees.
const (
	noOutput       = "(no output)"
	stdinRefused   = "Kernel requested stdin; interactive input is not supported."
	maxDisplayText = 8000 // bytes of one JSON display shown as text
)

// Details are the eval tool's structured result (omp's EvalToolDetails).
type Details struct {
	Language     string            `json:"language"`  // the first cell's runtime
	Languages    []string          `json:"languages"` // the runtimes used, in first-use order
	Cells        []CellDetails     `json:"cells"`
	JSONOutputs  []json.RawMessage `json:"jsonOutputs,omitempty"`  // display()ed data
	StatusEvents []json.RawMessage `json:"statusEvents,omitempty"` // helpers' status events
	Notice       string            `json:"notice,omitempty"`       // a language fallback
	Meta         *bash.Meta        `json:"meta,omitempty"`         // the last truncated cell's output
	IsError      bool              `json:"isError,omitempty"`
}

// CellDetails is one cell in Details.
type CellDetails struct {
	Index        int               `json:"index"`
	Title        string            `json:"title,omitempty"`
	Code         string            `json:"code"`
	Language     string            `json:"language"`
	Output       string            `json:"output"`
	Status       string            `json:"status"` // pending, running, complete, error
	DurationMs   int64             `json:"durationMs,omitempty"`
	ExitCode     *int              `json:"exitCode,omitempty"`
	StatusEvents []json.RawMessage `json:"statusEvents,omitempty"`
	HasMarkdown  bool              `json:"hasMarkdown,omitempty"`
}

// callRun is one call's progress: what the cells printed and showed.
type callRun struct {
	env      *tool.Env
	cells    []resolved
	aborted  bool
	onUpdate tool.UpdateFunc

	details Details
	texts   []string // each finished cell's text, headed in a multi-cell call
	images  []tool.Content
	ending  string // the failing cell's closing line; "" while all succeed
}

func newRun(env *tool.Env, cells []resolved, aborted bool, onUpdate tool.UpdateFunc) *callRun {
	r := &callRun{env: env, cells: cells, aborted: aborted, onUpdate: onUpdate}
	seen := map[Language]bool{}
	var notices []string
	for _, c := range cells {
		if !seen[c.lang] {
			seen[c.lang] = true
			r.details.Languages = append(r.details.Languages, string(c.lang))
		}
		if c.notice != "" && !strings.Contains(strings.Join(notices, " "), c.notice) {
			notices = append(notices, c.notice)
		}
		r.details.Cells = append(r.details.Cells, CellDetails{Index: c.Index, Title: c.Title, Code: c.Code, Language: string(c.lang), Status: "pending"})
	}
	r.details.Language = r.details.Languages[0]
	r.details.Notice = strings.Join(notices, " ")
	return r
}

// cell runs cell i; stop is true when the call ends with it (it failed
// or was interrupted).
func (r *callRun) cell(ctx context.Context, i int) (stop bool, err error) {
	c := r.cells[i]
	d := &r.details.Cells[i]
	d.Status = "running"
	sink := tool.NewOutputSink(r.env.Artifacts, "eval")
	sink.LimitArtifact(r.env.Settings.Bash.MaxArtifactBytes)
	stopTail := bash.StreamTail(sink, func(tail string) { r.update(i, tail) })
	start := time.Now()
	res, err := c.backend.Run(ctx, cell.Request{Code: c.Code, Timeout: c.Timeout, Reset: c.Reset, Output: sink})
	stopTail()
	sum, _ := sink.Close() // a failed spill only costs the full copy
	if err != nil {
		return true, tool.Errorf("Cell %d could not run: %v", i+1, err)
	}
	aborted := ctx.Err() != nil && !res.TimedOut
	d.DurationMs = time.Since(start).Milliseconds()
	text := r.cellText(c, res, sum, d)
	exit := res.ExitCode
	if (res.Cancelled || aborted) && exit == 0 {
		exit = 1
	}
	d.ExitCode, d.Output = &exit, text
	if n := len(r.cells); n > 1 {
		head := fmt.Sprintf("[%d/%d]", i+1, n)
		if c.Title != "" {
			head += " " + c.Title
		}
		if text == "" {
			text = head + " (ok)"
		} else {
			text = head + "\n" + text
		}
	}
	if text != "" {
		r.texts = append(r.texts, text)
	}
	if exit == 0 {
		d.Status = "complete"
		return false, nil
	}
	d.Status = "error"
	r.details.IsError = true
	multi := len(r.cells) > 1
	switch {
	case aborted && multi:
		r.ending = fmt.Sprintf("Cell %d was cancelled. The cells before it ran and what they defined is kept.", i+1)
	case aborted:
		r.ending = "Command cancelled"
	case res.TimedOut && multi:
		r.ending = fmt.Sprintf("Cell %d timed out after %s. The cells before it ran and what they defined is kept; the runtime kept the variables this cell set before the interruption.", i+1, formatTimeout(c.Timeout))
	case res.TimedOut:
		// the timeout line ends the cell's own text
	case multi:
		r.ending = fmt.Sprintf("Cell %d failed (exit code %d). The cells before it ran and what they defined is kept; fix and resend only cell %d (with the cells after it).", i+1, exit, i+1)
	default:
		r.ending = fmt.Sprintf("Command exited with code %d", exit)
	}
	return true, nil
}

// cellText is what one cell shows the model: the runtime's notes, its
// output (cut as bash cuts it), its JSON displays, the timeout line or
// the stdin refusal; images and events go to the result and details.
func (r *callRun) cellText(c resolved, res cell.Result, sum tool.SinkSummary, d *CellDetails) string {
	var parts []string
	for _, n := range res.Notes {
		parts = append(parts, "["+n+"]")
	}
	out := strings.Trim(strings.ToValidUTF8(sum.Output, "\uFFFD"), "\n\r\t ")
	if tr := bash.TruncationOf(bash.Outcome{Output: sum}); tr != nil {
		r.details.Meta = &bash.Meta{Truncation: tr}
		out = strings.TrimRight(out, "\n") + "\n\n" + bash.TruncationNotice(tr)
	}
	if out != "" {
		parts = append(parts, out)
	}
	shown := 0
	for _, disp := range res.Displays {
		switch disp.Kind {
		case cell.JSON:
			r.details.JSONOutputs = append(r.details.JSONOutputs, disp.JSON)
			shown++
			parts = append(parts, fmt.Sprintf("display[%d]:\n%s", shown, jsonText(disp.JSON)))
		case cell.Image:
			r.images = append(r.images, &tool.ImageContent{MIMEType: disp.MIME, Data: disp.Data})
		case cell.Status:
			r.details.StatusEvents = append(r.details.StatusEvents, disp.JSON)
			d.StatusEvents = append(d.StatusEvents, disp.JSON)
		case cell.Markdown:
			d.HasMarkdown = true
		}
	}
	if res.StdinRequested {
		parts = append(parts, stdinRefused)
	}
	if res.TimedOut {
		parts = append(parts, timeoutLine(c.Timeout))
	}
	return strings.Join(parts, "\n\n")
}

// jsonText is a displayed value as indented JSON, cut at maxDisplayText.
func jsonText(raw json.RawMessage) string {
	var v any
	text := string(raw)
	if json.Unmarshal(raw, &v) == nil {
		if b, err := json.MarshalIndent(v, "", "  "); err == nil {
			text = string(b)
		}
	}
	if len(text) > maxDisplayText {
		cut := maxDisplayText
		for cut > 0 && !isRuneStart(text[cut]) {
			cut--
		}
		text = fmt.Sprintf("%s\n… (%d more bytes not shown)", text[:cut], len(text)-cut)
	}
	return text
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// formatTimeout renders a cell timeout for the model.
func formatTimeout(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

// update sends the live view: the finished cells' text and the running
// cell's output so far.
func (r *callRun) update(i int, tail string) {
	if r.onUpdate == nil {
		return
	}
	text := strings.Join(append(append([]string(nil), r.texts...), tail), "\n\n")
	details := r.details
	details.Cells = append([]CellDetails(nil), r.details.Cells...)
	details.Cells[i].Output = tail
	r.onUpdate(&tool.Result{Content: []tool.Content{tool.Text(text)}, Details: &details})
}

// result is the call's answer.
func (r *callRun) result() *tool.Result {
	text := strings.Join(r.texts, "\n\n")
	if r.ending != "" {
		if text != "" {
			text += "\n\n"
		}
		text += r.ending
	}
	if text == "" {
		if n := len(r.images); n > 0 {
			text = fmt.Sprintf("(displayed %d image%s; no text output)", n, plural(n))
		} else {
			text = noOutput
		}
	}
	if r.aborted {
		text += "\n\n" + abortWarning
	}
	content := append([]tool.Content{tool.Text(text)}, r.images...)
	return &tool.Result{Content: content, Details: &r.details, IsError: r.details.IsError}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
