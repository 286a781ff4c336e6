package bash

import (
	"strconv"
	"strings"
)

func strconvFormat(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// applyHeadTail keeps the first head lines, then the last tail lines, of
// text (0 keeps all).
func applyHeadTail(text string, head, tail int) string {
	if head <= 0 && tail <= 0 || text == "" {
		return text
	}
	trailing := strings.HasSuffix(text, "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if head > 0 && len(lines) > head {
		lines = lines[:head]
	}
	if tail > 0 && len(lines) > tail {
		lines = lines[len(lines)-tail:]
	}
	out := strings.Join(lines, "\n")
	if trailing {
		out += "\n"
	}
	return out
}

// label shortens a command for a job label: at most 120 characters.
func label(command string) string {
	r := []rune(command)
	if len(r) > 120 {
		return string(r[:117]) + "..."
	}
	return command
}
