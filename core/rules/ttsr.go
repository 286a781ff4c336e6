package rules

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
)

// Stream kinds a Watcher sees.
const (
	KindText     = "text"
	KindThinking = "thinking"
	KindTool     = "tool"
)

// matchOverlap is how much already-seen text a new delta is matched
// together with: a condition matching across deltas is found as long as
// the match is shorter than this. Matching the whole block again on every
// delta would make long responses quadratic.
const matchOverlap = 2048

// Delta is one piece of a streaming response.
type Delta struct {
	Kind  string // KindText, KindThinking or KindTool
	Index int    // the content block it belongs to
	Tool  string // for KindTool: the tool's name
	Text  string // the appended text (argument JSON for tools)
}

// Match is what a Watcher found in a response.
type Match struct {
	Rules     []*Rule // the rules whose conditions matched, not injected before
	Interrupt bool    // stop the response now (else add the rules after the turn)
}

// Names returns the matched rules' names.
func (m *Match) Names() []string {
	var out []string
	for _, r := range m.Rules {
		out = append(out, r.Name)
	}
	return out
}

// compiled is a stream rule ready to match.
type compiled struct {
	rule   *Rule
	conds  []*regexp.Regexp
	scopes []scope // empty: text, thinking and every tool
}

// scope narrows where a rule's conditions are matched.
type scope struct {
	kind string         // KindText, KindThinking or KindTool
	tool string         // for tools: the tool's name ("" any)
	glob *regexp.Regexp // for tools: the call's path argument must match
}

// Watcher watches a session's responses for stream-rule conditions. It
// keeps which rules were injected and when, so that a rule fires once (or
// again after ttsr.repeatGap turns in after-gap mode). A Watcher is not
// safe for concurrent use: the session feeds it from its event handler.
type Watcher struct {
	settings config.TTSR
	rules    []*compiled
	injected map[string]int // rule name → turn of its last injection
	turn     int
	bufs     map[int]string // content index → the block's text so far
	pending  []*Rule        // matched in this response without interrupting
}

// pathArg finds the path argument in a tool call's (partial) JSON.
var pathArg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(?:path|file_path|file)"\s*:\s*"((?:[^"\\]|\\.)*)"`)
})

// NewWatcher compiles the stream rules. Conditions that are neither valid
// regular expressions nor file globs are skipped with a warning; a
// condition that is a file glob (say *.ts) becomes a scope on the edit and
// write tools' path with a condition matching anything.
func NewWatcher(rules []*Rule, st config.TTSR) (*Watcher, []error) {
	w := &Watcher{settings: st, injected: map[string]int{}, bufs: map[int]string{}}
	var warns []error
	for _, r := range rules {
		c := &compiled{rule: r}
		for _, cond := range r.Condition {
			re, err := regexp.Compile(cond)
			if err == nil {
				c.conds = append(c.conds, re)
				continue
			}
			if strings.ContainsAny(cond, "*?") {
				g := globRegexp(cond)
				c.scopes = append(c.scopes, scope{kind: KindTool, tool: "edit", glob: g}, scope{kind: KindTool, tool: "write", glob: g})
				c.conds = append(c.conds, regexp.MustCompile(`(?s).`))
				continue
			}
			warns = append(warns, fmt.Errorf("rule %s: condition %q is not a valid regular expression (%v); it is ignored", r.Path, cond, err))
		}
		for _, s := range r.Scope {
			sc, ok := parseScope(s)
			if !ok {
				warns = append(warns, fmt.Errorf("rule %s: scope %q is not text, thinking, tool, tool:<name> or tool:<name>(<glob>); it is ignored", r.Path, s))
				continue
			}
			c.scopes = append(c.scopes, sc)
		}
		if len(c.conds) > 0 {
			w.rules = append(w.rules, c)
		}
	}
	return w, warns
}

// parseScope reads text, thinking, tool, tool:<name>, tool:<name>(<glob>).
func parseScope(s string) (scope, bool) {
	s = strings.TrimSpace(s)
	switch s {
	case KindText, "prose":
		return scope{kind: KindText}, true
	case KindThinking:
		return scope{kind: KindThinking}, true
	case KindTool, "tools":
		return scope{kind: KindTool}, true
	}
	rest, ok := strings.CutPrefix(s, "tool:")
	if !ok || rest == "" {
		return scope{}, false
	}
	sc := scope{kind: KindTool, tool: rest}
	if open := strings.IndexByte(rest, '('); open > 0 && strings.HasSuffix(rest, ")") {
		sc.tool = rest[:open]
		sc.glob = globRegexp(rest[open+1 : len(rest)-1])
	}
	return sc, true
}

// globRegexp turns a file glob into a regular expression: ** spans
// directories, * and ? do not; a glob without a slash matches the base
// name anywhere.
func globRegexp(g string) *regexp.Regexp {
	var b strings.Builder
	if !strings.Contains(g, "/") {
		b.WriteString(`(?:^|/)`)
	} else {
		b.WriteString(`^(?:\./)?`)
	}
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString(`(?:.*/)?`)
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(`.*`)
			i++
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// Len returns the number of active stream rules.
func (w *Watcher) Len() int { return len(w.rules) }

// Restore marks rules as injected earlier (a resumed session's
// ttsr_injection entries), so they do not fire again in once mode.
func (w *Watcher) Restore(names []string) {
	for _, n := range names {
		w.injected[n] = w.turn
	}
}

// Reset forgets every injection and marks names injected instead (the
// rules injected on another session path).
func (w *Watcher) Reset(names []string) {
	clear(w.injected)
	w.pending = nil
	w.Restore(names)
}

// BeginResponse forgets the text of the previous response.
func (w *Watcher) BeginResponse() {
	clear(w.bufs)
	w.pending = nil
}

// EndTurn counts a finished turn (for ttsr.repeatGap) and returns the rules
// matched in it without interrupting, now marked injected: the caller adds
// them to the conversation.
func (w *Watcher) EndTurn() []*Rule {
	w.turn++
	p := w.pending
	w.pending = nil
	for _, r := range p {
		w.injected[r.Name] = w.turn
	}
	return p
}

// eligible reports whether a rule may fire now.
func (w *Watcher) eligible(name string) bool {
	last, done := w.injected[name]
	if !done {
		return true
	}
	return w.settings.RepeatMode == "after-gap" && w.turn-last >= max(w.settings.RepeatGap, 1)
}

// Observe feeds one delta. It returns a Match when conditions of rules
// not yet injected matched and the response should be interrupted now;
// matches that should not interrupt are kept for EndTurn. Rules in an
// interrupting Match are marked injected.
func (w *Watcher) Observe(d Delta) *Match {
	if !w.settings.Enabled || len(w.rules) == 0 || d.Text == "" {
		return nil
	}
	prev := w.bufs[d.Index]
	buf := prev + d.Text
	w.bufs[d.Index] = buf
	window := buf[max(0, len(prev)-matchOverlap):]
	var toolPath string
	if d.Kind == KindTool {
		if m := pathArg().FindStringSubmatch(buf); m != nil {
			toolPath = strings.ReplaceAll(m[1], `\/`, `/`)
		}
	}
	var hit *Match
	for _, c := range w.rules {
		name := c.rule.Name
		if !w.eligible(name) || w.isPending(name) || !c.inScope(d, toolPath) {
			continue
		}
		matched := false
		for _, re := range c.conds {
			if re.MatchString(window) {
				matched = true
				break
			}
		}
		if !matched {
			continue
		}
		if w.interrupts(c.rule, d.Kind) {
			if hit == nil {
				hit = &Match{Interrupt: true}
			}
			hit.Rules = append(hit.Rules, c.rule)
		} else {
			w.pending = append(w.pending, c.rule)
		}
	}
	if hit != nil {
		for _, r := range hit.Rules {
			w.injected[r.Name] = w.turn
		}
	}
	return hit
}

// isPending reports whether a rule already matched in this response
// without interrupting.
func (w *Watcher) isPending(name string) bool {
	for _, r := range w.pending {
		if r.Name == name {
			return true
		}
	}
	return false
}

// interrupts applies the rule's (or the setting's) interrupt mode to a
// match in kind.
func (w *Watcher) interrupts(r *Rule, kind string) bool {
	mode := r.InterruptMode
	if mode == "" {
		mode = w.settings.InterruptMode
	}
	switch mode {
	case InterruptNever:
		return false
	case InterruptProseOnly:
		return kind != KindTool
	case InterruptToolOnly:
		return kind == KindTool
	}
	return true
}

// inScope reports whether a delta is where the rule looks.
func (c *compiled) inScope(d Delta, toolPath string) bool {
	if len(c.scopes) == 0 {
		return true
	}
	for _, s := range c.scopes {
		if s.kind != d.Kind {
			continue
		}
		if s.kind != KindTool {
			return true
		}
		if s.tool != "" && s.tool != d.Tool {
			continue
		}
		if s.glob != nil && (toolPath == "" || !s.glob.MatchString(path.Clean(toolPath))) {
			continue
		}
		return true
	}
	return false
}

// InjectionText is the message that puts matched rules into the
// conversation, telling the model why it sees them.
func InjectionText(rules []*Rule, interrupted bool) string {
	var b strings.Builder
	if interrupted {
		b.WriteString("Your response was stopped because it went against a project rule. Read the rule below, then continue the task in a way that follows it; do not repeat the stopped output.\n")
	} else {
		b.WriteString("Your last response touched on a project rule. Read it and make sure your work follows it.\n")
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n<rule name=%q path=%q>\n%s\n</rule>\n", r.Name, r.Path, strings.TrimSpace(r.Content))
	}
	return strings.TrimRight(b.String(), "\n")
}
