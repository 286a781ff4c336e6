package astcli

import (
	"strings"
	"testing"
)

// TestOutputBuffer: a terminal gets the small buffer (first matches
// early), a pipe or a file the large one (few write calls).
func TestOutputBuffer(t *testing.T) {
	t.Parallel()
	var sink strings.Builder
	if got := (Output{Stdout: &sink, Terminal: true}).buffer().Size(); got != 4096 {
		t.Errorf("terminal buffer %d, want 4096", got)
	}
	if got := (Output{Stdout: &sink}).buffer().Size(); got != 64<<10 {
		t.Errorf("pipe buffer %d, want %d", got, 64<<10)
	}
}
