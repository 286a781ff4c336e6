package dap

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The output keeps the newest MaxOutputBytes, drops older text a
// kilobyte at a time without splitting a character, and counts every
// byte written.
func TestOutputBuffer(t *testing.T) {
	t.Parallel()
	var o outputBuffer
	_, _ = o.Write([]byte("first\n"))
	if text, total, trunc := o.snapshot(); text != "first\n" || total != 6 || trunc {
		t.Fatalf("%q %d %v", text, total, trunc)
	}
	line := strings.Repeat("é", 500) + "\n" // 1001 bytes
	for range 200 {
		_, _ = o.Write([]byte(line))
	}
	text, total, trunc := o.snapshot()
	if !trunc || total != 6+200*len(line) || len(text) > MaxOutputBytes || len(text) < MaxOutputBytes-outputTrimStep-4 {
		t.Fatalf("len %d total %d truncated %v", len(text), total, trunc)
	}
	if !utf8.ValidString(text) || !strings.HasSuffix(text, line) || strings.Contains(text, "first") {
		t.Fatal("kept the wrong end, or split a character")
	}
}
