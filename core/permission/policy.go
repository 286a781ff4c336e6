package permission

import (
	"fmt"
	"path"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Policy says which calls need the user's approval (see the package doc
// for the pattern syntax). The zero Policy asks about nothing.
type Policy struct {
	names   map[string]bool // exact names: asked whatever the call does
	globs   []string        // patterns: asked when the call writes or runs
	exclude []string        // never asked (exact names or patterns)
}

// ParsePolicy reads a list of patterns; a malformed one is an error
// naming it.
func ParsePolicy(patterns []string) (Policy, error) {
	p := Policy{names: map[string]bool{}}
	for i, raw := range patterns {
		pat := strings.TrimSpace(raw)
		neg := strings.HasPrefix(pat, "!")
		if neg {
			pat = strings.TrimSpace(pat[1:])
		}
		if pat == "" {
			return Policy{}, fmt.Errorf("entry %d (%q) names no tool: write a tool name, a pattern such as mcp__*, or !name to exclude one", i+1, raw)
		}
		if _, err := path.Match(pat, ""); err != nil {
			return Policy{}, fmt.Errorf("entry %d (%q) is not a valid pattern: %w", i+1, raw, err)
		}
		switch {
		case neg:
			p.exclude = append(p.exclude, pat)
		case isGlob(pat):
			p.globs = append(p.globs, pat)
		default:
			p.names[pat] = true
		}
	}
	return p, nil
}

// Empty reports whether the policy asks about nothing.
func (p Policy) Empty() bool { return len(p.names) == 0 && len(p.globs) == 0 }

// Requires reports whether a call that does a needs the user's approval.
func (p Policy) Requires(a tool.Access) bool {
	if a.Tool == "" {
		return false
	}
	for _, x := range p.exclude {
		if matches(x, a.Tool) {
			return false
		}
	}
	if p.names[a.Tool] {
		return true
	}
	if !a.Writes {
		return false
	}
	for _, g := range p.globs {
		if matches(g, a.Tool) {
			return true
		}
	}
	return false
}

// isGlob reports whether pat has wildcard characters.
func isGlob(pat string) bool { return strings.ContainsAny(pat, "*?[") }

// matches reports whether name matches pat (a name or a pattern, already
// checked by ParsePolicy).
func matches(pat, name string) bool {
	if !isGlob(pat) {
		return pat == name
	}
	ok, _ := path.Match(pat, name)
	return ok
}
