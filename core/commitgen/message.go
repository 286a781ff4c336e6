package commitgen

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Limits of a commit message, as omp's commit command keeps them.
const (
	MaxSummary = 72  // characters of the summary after "type(scope): "
	MaxDetail  = 120 // characters of one body line
	MaxDetails = 6   // body lines
)

// Types are the conventional commit types a message may have.
var Types = []string{"feat", "fix", "refactor", "perf", "docs", "test", "build", "ci", "chore", "style", "revert"}

// Message is a conventional commit message: "type(scope): summary", then
// the details as a bulleted body.
type Message struct {
	Type    string   `json:"type"`
	Scope   string   `json:"scope,omitempty"`
	Summary string   `json:"summary"`
	Details []string `json:"details,omitempty"`
}

// String formats the message as it is committed.
func (m Message) String() string {
	var b strings.Builder
	b.WriteString(m.Type)
	if m.Scope != "" {
		b.WriteString("(" + m.Scope + ")")
	}
	b.WriteString(": " + m.Summary)
	if len(m.Details) > 0 {
		b.WriteString("\n")
		for _, d := range m.Details {
			b.WriteString("\n- " + d)
		}
	}
	return b.String()
}

// scopeSegment is one part of a scope: lowercase letters, digits, - and _.
var scopeSegment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
})

// normalize trims the parts and drops a "type(scope): " the model put
// before the summary anyway.
func (m *Message) normalize() {
	m.Type = strings.TrimSpace(m.Type)
	m.Scope = strings.TrimSpace(m.Scope)
	m.Summary = strings.TrimSpace(m.Summary)
	for _, prefix := range []string{m.Type + "(" + m.Scope + "): ", m.Type + ": "} {
		if prefix != "(): " && strings.HasPrefix(m.Summary, prefix) {
			m.Summary = strings.TrimSpace(strings.TrimPrefix(m.Summary, prefix))
		}
	}
	details := m.Details[:0]
	for _, d := range m.Details {
		if d = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d), "- ")); d != "" {
			details = append(details, d)
		}
	}
	m.Details = details
}

// Problems lists what breaks the conventions in m, one sentence each;
// none when m is fine.
func (m Message) Problems() []string {
	var out []string
	if !slices.Contains(Types, m.Type) {
		out = append(out, fmt.Sprintf("type %q is not one of %s", m.Type, strings.Join(Types, ", ")))
	}
	if m.Scope != "" {
		segs := strings.Split(m.Scope, "/")
		if len(segs) > 2 {
			out = append(out, "the scope has more than two segments")
		}
		for _, s := range segs {
			if !scopeSegment().MatchString(s) {
				out = append(out, fmt.Sprintf("scope segment %q is not lowercase letters, digits, - or _", s))
			}
		}
	}
	switch {
	case m.Summary == "":
		out = append(out, "the summary is empty")
	case strings.ContainsAny(m.Summary, "\r\n"):
		out = append(out, "the summary is more than one line")
	}
	if n := len([]rune(m.Summary)); n > MaxSummary {
		out = append(out, fmt.Sprintf("the summary has %d characters, more than %d", n, MaxSummary))
	}
	if strings.HasSuffix(m.Summary, ".") {
		out = append(out, "the summary ends with a period")
	}
	if len(m.Details) > MaxDetails {
		out = append(out, fmt.Sprintf("there are %d details, more than %d", len(m.Details), MaxDetails))
	}
	for _, d := range m.Details {
		if n := len([]rune(d)); n > MaxDetail {
			out = append(out, fmt.Sprintf("a detail has %d characters, more than %d: %q", n, MaxDetail, d))
		}
		if !strings.HasSuffix(d, ".") {
			out = append(out, fmt.Sprintf("a detail does not end with a period: %q", d))
		}
	}
	return out
}
