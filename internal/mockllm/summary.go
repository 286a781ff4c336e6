package mockllm

import (
	"fmt"
	"strings"
)

// Summary describes the turn on one line: its blocks (or HTTP error) and
// how it ends, as `gopi mockllm --check` lists a script.
func (t Turn) Summary() string {
	if t.Status != 0 {
		s := fmt.Sprintf("HTTP %d", t.Status)
		if t.RetryAfter != "" {
			s += " retry-after " + t.RetryAfter
		}
		return s
	}
	var parts []string
	for _, b := range t.Blocks {
		switch b.Type {
		case BlockToolCall:
			parts = append(parts, fmt.Sprintf("toolCall %s %s", b.Name, b.Arguments))
		default:
			parts = append(parts, fmt.Sprintf("%s %q", b.Type, b.Text))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "empty reply")
	}
	stop := t.Stop
	if stop == "" {
		stop = "auto"
	}
	s := strings.Join(parts, ", ") + "; stop " + stop
	if t.StreamError {
		s += "; stream error"
	}
	if t.DisconnectAfter > 0 {
		s += fmt.Sprintf("; disconnect after %d frames", t.DisconnectAfter)
	}
	if t.StallAfter > 0 {
		s += fmt.Sprintf("; stall after %d frames", t.StallAfter)
	}
	return s
}
