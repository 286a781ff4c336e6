package aicli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// printer renders stream events as text or JSON lines. The text output
// ends with exactly one newline when any text was printed, however the
// answer itself ends: newlines at the end of what arrived so far are held
// back until more text follows, and endLine writes the single closing one.
// An answer of newlines only prints nothing.
type printer struct {
	stdout   io.Writer
	stderr   io.Writer
	json     bool
	thinking bool
	open     bool // text was printed and its last line not yet ended
	held     int  // trailing newlines of the text, not printed yet
}

func (o *printer) event(ev ai.Event) {
	if o.json {
		ev.Partial = nil
		if ev.Message != nil {
			m := *ev.Message
			m.Timestamp = 0
			ev.Message = &m
		}
		data, _ := json.Marshal(ev)
		fmt.Fprintf(o.stdout, "%s\n", data)
		return
	}
	switch ev.Type {
	case ai.EventTextDelta:
		o.text(ev.Delta)
	case ai.EventThinkingDelta:
		if o.thinking {
			io.WriteString(o.stderr, ev.Delta)
		}
	case ai.EventThinkingEnd:
		if o.thinking {
			io.WriteString(o.stderr, "\n")
		}
	}
}

func (o *printer) retry(e ai.RetryEvent) {
	o.endLine()
	if o.json {
		data, _ := json.Marshal(e)
		fmt.Fprintf(o.stdout, "%s\n", data)
		return
	}
	switch e.Type {
	case ai.EventAutoRetryStart:
		fmt.Fprintf(o.stderr, "gopi ai: %s; retry %d/%d in %s\n", e.ErrorMessage, e.Attempt, e.MaxAttempts, time.Duration(e.DelayMs)*time.Millisecond)
	case ai.EventAutoRetryEnd:
		if e.Success {
			fmt.Fprintf(o.stderr, "gopi ai: retry %d succeeded\n", e.Attempt)
		}
	}
}

// text prints a piece of the answer, holding back its trailing newlines.
func (o *printer) text(s string) {
	body := strings.TrimRight(s, "\n")
	if body == "" {
		o.held += len(s)
		return
	}
	io.WriteString(o.stdout, strings.Repeat("\n", o.held)+body)
	o.held = len(s) - len(body)
	o.open = true
}

// endLine ends the printed text with exactly one newline.
func (o *printer) endLine() {
	if !o.json && o.open {
		io.WriteString(o.stdout, "\n")
		o.open, o.held = false, 0
	}
}

func (o *printer) finish(*ai.AssistantMessage) { o.endLine() }
