package agentrig

import "regexp"

var (
	timestampField = regexp.MustCompile(`"timestamp":("[^"]*"|\d+)`)
	idField        = regexp.MustCompile(`"(id|parentId|responseId)":"[^"]*"`)
	durationField  = regexp.MustCompile(`"(duration)":\d+`)
	// ttft is there only when a delta arrived before the end, which an
	// abort makes a matter of timing.
	ttftField = regexp.MustCompile(`,"ttft":\d+`)
	cwdField  = regexp.MustCompile(`"cwd":"[^"]*"`)
)

// NormalizeEvents replaces what changes from run to run.
func NormalizeEvents(s string) string {
	s = timestampField.ReplaceAllString(s, `"timestamp":0`)
	s = idField.ReplaceAllString(s, `"$1":"ID"`)
	s = ttftField.ReplaceAllString(s, "")
	s = durationField.ReplaceAllString(s, `"$1":0`)
	return cwdField.ReplaceAllString(s, `"cwd":"CWD"`)
}
