package fscache

import (
	"bytes"
	"os"
	"strings"

	gitignore "github.com/boyter/gocodewalker/go-gitignore"
)

// This file holds the ignore-rule model of the walk. Patterns are parsed by
// gocodewalker's go-gitignore package; the evaluation order (which file wins)
// is ours and follows ripgrep's: a match in a `.ignore` file beats one in a
// `.gitignore`, which beats `.git/info/exclude`, which beats the global
// excludes file; inside each kind the deepest directory wins, and inside one
// file the last matching line wins.

// verdict is the outcome of matching a path against the ignore rules.
type verdict uint8

const (
	noMatch   verdict = iota // no rule mentions the path
	ignored                  // the last matching rule excludes it
	whitelist                // the last matching rule is a negation (!pattern)
)

// rule is one parsed pattern plus what the parser does not model correctly.
type rule struct {
	pat gitignore.Pattern
	// topLevel marks an anchored pattern without an inner slash ("/a*"). The
	// parser matches those against the whole relative path without treating
	// '/' specially, so "a*" would also match "abc/def"; git only matches
	// such a pattern at the top level of its base directory.
	topLevel bool
	// fast, when set, matches as pat does, without fnmatch.
	fast *fastRule
}

// ruleSet is the parsed content of one ignore file.
type ruleSet struct {
	rules []rule
}

// parseRules parses gitignore-syntax content; lines the parser rejects are
// skipped.
func parseRules(content []byte) *ruleSet {
	content = normalizeRules(content)
	pats := gitignore.NewParser(bytes.NewReader(content), func(gitignore.Error) bool { return true }).Parse()
	rs := &ruleSet{rules: make([]rule, 0, len(pats))}
	for _, p := range pats {
		s := p.String()
		s = strings.TrimPrefix(s, "!")
		top := false
		if strings.HasPrefix(s, "/") {
			inner := strings.TrimSuffix(s[1:], "/")
			top = !strings.Contains(inner, "/")
		}
		rs.rules = append(rs.rules, rule{pat: p, topLevel: top, fast: newFastRule(p.String(), p.Include())})
	}
	return rs
}

// normalizeRules rewrites the lines the parser would misread:
//   - CRLF line endings lose their carriage return;
//   - a trailing "/**" ("dir/**", "dir/**/") becomes "dir/**/*": git reads it
//     as "everything inside dir" but the parser also lets "**" match zero
//     components, which would ignore dir itself and make "!dir/keep" unable
//     to re-include anything.
func normalizeRules(content []byte) []byte {
	if !bytes.Contains(content, []byte("/**")) && !bytes.Contains(content, []byte("\r")) {
		return content
	}
	lines := bytes.Split(content, []byte("\n"))
	for i, line := range lines {
		line = bytes.TrimSuffix(line, []byte("\r"))
		body := bytes.TrimRight(line, " ")
		dirOnly := bytes.HasSuffix(body, []byte("/**/"))
		if dirOnly {
			body = body[:len(body)-1]
		}
		if bytes.HasSuffix(body, []byte("/**")) && !bytes.HasPrefix(body, []byte("#")) {
			fixed := append(append([]byte{}, body...), "/*"...)
			if dirOnly {
				fixed = append(fixed, '/')
			}
			line = fixed
		}
		lines[i] = line
	}
	return bytes.Join(lines, []byte("\n"))
}

// match returns the verdict of the last rule matching rel (slash-separated,
// relative to the file's base directory).
func (rs *ruleSet) match(rel string, isDir bool) verdict {
	for i := len(rs.rules) - 1; i >= 0; i-- {
		r := &rs.rules[i]
		if r.topLevel && strings.IndexByte(rel, '/') >= 0 {
			continue
		}
		var hit bool
		if r.fast != nil {
			hit = r.fast.match(rel, isDir)
		} else {
			hit = r.pat.Match(rel, isDir)
		}
		if hit {
			if r.pat.Include() {
				return whitelist
			}
			return ignored
		}
	}
	return noMatch
}

// boundRules is a rule set attached to its base directory. A walk entry's
// path relative to the base is prefix + entryPath[cut:]: bases inside the
// scan root cut their own relative path off, bases above it prepend the scan
// root's path relative to them.
type boundRules struct {
	rs     *ruleSet
	prefix string
	cut    int
}

func (b *boundRules) match(entryPath string, isDir bool) verdict {
	rel := entryPath[b.cut:]
	if b.prefix != "" {
		rel = b.prefix + rel
	}
	return b.rs.match(rel, isDir)
}

// bindBelow attaches rs to the directory dirRel inside the scan root ("" is
// the root itself).
func bindBelow(rs *ruleSet, dirRel string) *boundRules {
	if dirRel == "" {
		return &boundRules{rs: rs}
	}
	return &boundRules{rs: rs, cut: len(dirRel) + 1}
}

// bindAbove attaches rs to a directory above the scan root; rootRel is the
// scan root relative to that directory.
func bindAbove(rs *ruleSet, rootRel string) *boundRules {
	return &boundRules{rs: rs, prefix: rootRel + "/"}
}

// ignoreState is the rule stack in effect for one directory's children. It is
// immutable once built; a child directory shares its parent's state unless it
// adds rules of its own.
type ignoreState struct {
	dotIgnore []*boundRules // .ignore files, shallowest first
	gitIgnore []*boundRules // .gitignore files of the current repository, shallowest first
	exclude   *boundRules   // .git/info/exclude of the current repository
	global    *boundRules   // global excludes file, bound to the current repository root
	inRepo    bool          // a .git was seen at or above this directory
}

// empty reports whether no rule can match anything.
func (s *ignoreState) empty() bool {
	return len(s.dotIgnore) == 0 && len(s.gitIgnore) == 0 && s.exclude == nil && s.global == nil
}

// match evaluates the rule stack for one entry, with ripgrep's precedence.
func (s *ignoreState) match(entryPath string, isDir bool) verdict {
	for i := len(s.dotIgnore) - 1; i >= 0; i-- {
		if v := s.dotIgnore[i].match(entryPath, isDir); v != noMatch {
			return v
		}
	}
	for i := len(s.gitIgnore) - 1; i >= 0; i-- {
		if v := s.gitIgnore[i].match(entryPath, isDir); v != noMatch {
			return v
		}
	}
	if s.exclude != nil {
		if v := s.exclude.match(entryPath, isDir); v != noMatch {
			return v
		}
	}
	if s.global != nil {
		return s.global.match(entryPath, isDir)
	}
	return noMatch
}

// dirMarkers records which ignore-relevant names a directory listing holds.
type dirMarkers struct {
	git, gitignore, dotIgnore bool
}

// child returns the state for the children of directory dirRel (relative to
// the scan root, absolute path dirAbs) given the markers found in its listing.
func (s *ignoreState) child(dirAbs, dirRel string, m dirMarkers, g *globalExcludes) *ignoreState {
	if !m.git && !m.gitignore && !m.dotIgnore {
		return s
	}
	n := *s
	if m.git {
		// A repository root: the enclosing repository's rules stop here.
		n.inRepo = true
		n.gitIgnore = nil
		n.exclude = nil
		if rs := loadRules(gitExcludePath(dirAbs)); rs != nil {
			n.exclude = bindBelow(rs, dirRel)
		}
		n.global = nil
		if rs := g.rules(); rs != nil {
			n.global = bindBelow(rs, dirRel)
		}
	}
	if m.gitignore && n.inRepo {
		if rs := loadRules(dirAbs + "/.gitignore"); rs != nil {
			n.gitIgnore = append(n.gitIgnore[:len(n.gitIgnore):len(n.gitIgnore)], bindBelow(rs, dirRel))
		}
	}
	if m.dotIgnore {
		if rs := loadRules(dirAbs + "/.ignore"); rs != nil {
			n.dotIgnore = append(n.dotIgnore[:len(n.dotIgnore):len(n.dotIgnore)], bindBelow(rs, dirRel))
		}
	}
	return &n
}

// loadRules reads and parses an ignore file; nil when it is unreadable or
// holds no pattern.
func loadRules(path string) *ruleSet {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return nil
	}
	rs := parseRules(data)
	if len(rs.rules) == 0 {
		return nil
	}
	return rs
}
