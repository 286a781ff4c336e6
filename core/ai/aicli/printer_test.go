package aicli

import (
	"bytes"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// TestPrinterEndsWithOneNewline: the answer ends with exactly one
// newline when text was printed, whatever the model's text ends with and
// however it is split into deltas; no text prints nothing.
func TestPrinterEndsWithOneNewline(t *testing.T) {
	for _, tc := range []struct {
		name   string
		deltas []string
		want   string
	}{
		{"no newline", []string{"Hello", " world."}, "Hello world.\n"},
		{"one newline", []string{"Hello.\n"}, "Hello.\n"},
		{"blank lines at the end", []string{"Hello.\n\n", "\n", ""}, "Hello.\n"},
		{"newlines inside", []string{"a\n", "\n", "b\n\n"}, "a\n\nb\n"},
		{"leading newlines kept", []string{"\n", "\nHi"}, "\n\nHi\n"},
		{"only newlines", []string{"\n\n"}, ""},
		{"no text", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &printer{stdout: &out, stderr: &bytes.Buffer{}}
			p.event(ai.Event{Type: ai.EventStart})
			for _, d := range tc.deltas {
				p.event(ai.Event{Type: ai.EventTextDelta, Delta: d})
			}
			p.finish(nil)
			if out.String() != tc.want {
				t.Errorf("printed %q, want %q", out.String(), tc.want)
			}
		})
	}
}
