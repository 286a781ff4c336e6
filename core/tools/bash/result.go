package bash

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

// Texts the model sees.
const (
	noOutput         = "(no output)"
	missingExit      = "Command failed: missing exit status"
	cancelledText    = "Command cancelled"
	shellEndedNotice = "[The session's shell ended with this command; the next command starts in a new shell, so earlier directory changes and variables are gone.]"
	freshShellNotice = "[The session's shell was busy (or could not start), so this ran in a separate shell: it started in the session's directory but without the variables and functions of earlier calls, and its own cd and exports are not kept.]"
)

// Details are the bash tool's structured result.
type Details struct {
	TimeoutSeconds          float64  `json:"timeoutSeconds"`
	RequestedTimeoutSeconds *float64 `json:"requestedTimeoutSeconds,omitempty"` // set when the timeout was clamped
	Meta                    *Meta    `json:"meta,omitempty"`
	Async                   *Async   `json:"async,omitempty"`
}

// Meta is the output metadata (omp's OutputMeta).
type Meta struct {
	Truncation *Truncation `json:"truncation,omitempty"`
}

// Truncation says what part of a long output the text shows.
type Truncation struct {
	Direction   string `json:"direction"`   // "tail": the end is shown
	TruncatedBy string `json:"truncatedBy"` // "bytes"
	TotalLines  int64  `json:"totalLines"`
	TotalBytes  int64  `json:"totalBytes"`
	OutputLines int64  `json:"outputLines"`
	OutputBytes int64  `json:"outputBytes"`
	MaxBytes    int    `json:"maxBytes"`
	ShownRange  Range  `json:"shownRange"`
	ArtifactID  string `json:"artifactId,omitempty"` // the full output: artifact://<id>
	// ArtifactDroppedBytes and ArtifactDroppedLines are set when the
	// output went past bash.maxArtifactBytes: the artifact then lacks this
	// much of the output's middle (it keeps the head and the tail).
	ArtifactDroppedBytes int64 `json:"artifactDroppedBytes,omitempty"`
	ArtifactDroppedLines int64 `json:"artifactDroppedLines,omitempty"`
	// LastLineBytes is the length of the output's last line; when the
	// text shown is less than that line, the notice says it shows a part
	// of one line.
	LastLineBytes int64 `json:"-"`
}

// Range is a 1-based inclusive line range.
type Range struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// Async is a background job's state in the details.
type Async struct {
	State string `json:"state"` // running, completed or failed
	JobID string `json:"jobId"`
	Type  string `json:"type"` // "bash"
}

// details returns the details common to every result of a call.
func (in input) details() *Details {
	d := &Details{TimeoutSeconds: in.Timeout}
	if in.Requested != in.Timeout {
		r := in.Requested
		d.RequestedTimeoutSeconds = &r
	}
	return d
}

// TruncationOf describes what part of a long output Outcome.Output holds
// (omp's truncation metadata); nil when it holds all of it.
func TruncationOf(o Outcome) *Truncation { return truncation(o) }

// truncation describes a truncated output, or nil.
func truncation(o Outcome) *Truncation {
	s := o.Output
	if !s.Truncated {
		return nil
	}
	outLines := int64(strings.Count(s.Output, "\n"))
	if s.Output != "" && !strings.HasSuffix(s.Output, "\n") {
		outLines++
	}
	return &Truncation{
		Direction: "tail", TruncatedBy: "bytes",
		TotalLines: s.TotalLines, TotalBytes: s.TotalBytes,
		OutputLines: outLines, OutputBytes: int64(len(s.Output)), MaxBytes: tool.DefaultMaxBytes,
		ShownRange: Range{Start: max(s.TotalLines-outLines+1, 1), End: s.TotalLines},
		ArtifactID: s.ArtifactID, ArtifactDroppedBytes: s.ArtifactDroppedBytes, ArtifactDroppedLines: s.ArtifactDroppedLines,
		LastLineBytes: s.LastLineBytes,
	}
}

// TruncationNotice is the line after a truncated output (bash, ssh,
// eval). Omp's text, except where it would not be true: when what is shown
// is the end of one line longer than the limit, it says so and how long
// the line is, and a dropped middle without a newline is called part of
// one line rather than "0 lines".
func TruncationNotice(tr *Truncation) string {
	limit := tool.FormatSize(int64(tr.MaxBytes))
	n := fmt.Sprintf("[Showing lines %d-%d of %d (%s limit)", tr.ShownRange.Start, tr.ShownRange.End, tr.TotalLines, limit)
	if shown := tr.OutputBytes; tr.OutputLines == 1 && shown > 0 && shown <= tr.LastLineBytes {
		n = fmt.Sprintf("[Showing the last %s of line %d of %d, which is %s long (%s limit)", tool.FormatSize(shown), tr.ShownRange.End, tr.TotalLines, tool.FormatSize(tr.LastLineBytes), limit)
	}
	switch {
	case tr.ArtifactID != "" && tr.ArtifactDroppedBytes > 0 && tr.ArtifactDroppedLines == 0:
		return fmt.Sprintf("%s. The saved output, %s, keeps the start and the end: %d bytes in the middle, all within one line, were dropped (bash.maxArtifactBytes)]", n, artifact.URL(tr.ArtifactID), tr.ArtifactDroppedBytes)
	case tr.ArtifactID != "" && tr.ArtifactDroppedBytes > 0:
		return fmt.Sprintf("%s. The saved output, %s, keeps the start and the end: %d bytes (%d lines) in the middle were dropped (bash.maxArtifactBytes)]", n, artifact.URL(tr.ArtifactID), tr.ArtifactDroppedBytes, tr.ArtifactDroppedLines)
	case tr.ArtifactID != "":
		return n + ". " + tool.FullOutputNotice(tr.ArtifactID) + "]"
	}
	return n + "; the earlier output was not saved.]"
}

// body is the text of a finished command: its output (head/tail applied,
// "(no output)" when empty) and the notices that apply.
func body(in input, o Outcome, d *Details) string {
	text := strings.ToValidUTF8(o.Output.Output, "\uFFFD")
	text = applyHeadTail(text, in.Head, in.Tail)
	if strings.TrimSpace(text) == "" && !o.Output.Truncated {
		text = noOutput
	}
	var notices []string
	if tr := truncation(o); tr != nil {
		d.Meta = &Meta{Truncation: tr}
		notices = append(notices, TruncationNotice(tr))
	}
	if o.Result.ShellExited && !o.Result.OneShot {
		notices = append(notices, shellEndedNotice)
	}
	if o.FreshShell {
		notices = append(notices, freshShellNotice)
	}
	if n := in.clampNotice(); n != "" {
		notices = append(notices, n)
	}
	if len(notices) > 0 {
		text = strings.TrimRight(text, "\n") + "\n\n" + strings.Join(notices, "\n")
	}
	return text
}

// finish turns a finished command into the tool's answer: a result for
// exit status 0, an error with the output and the reason otherwise.
func finish(in input, o Outcome) (*tool.Result, error) {
	d := in.details()
	text := body(in, o, d)
	r := o.Result
	if r.TimedOut || r.Cancelled || !r.Exited || r.ExitCode != 0 {
		text = strings.TrimRight(text, "\n")
	}
	switch {
	case r.TimedOut:
		return nil, &tool.Error{Msg: text + "\n\nCommand timed out after " + formatSeconds(in.Timeout) + " seconds"}
	case r.Cancelled:
		return nil, &tool.Error{Msg: text + "\n\n" + cancelledText}
	case !r.Exited:
		return nil, &tool.Error{Msg: text + "\n\n" + missingExit}
	case r.ExitCode != 0:
		return nil, &tool.Error{Msg: text + "\n\n" + exitText(r.ExitCode)}
	}
	return tool.TextResult(text, d), nil
}
