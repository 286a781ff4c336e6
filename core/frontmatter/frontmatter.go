// Package frontmatter reads the "---" delimited YAML header of the
// markdown files skills, rules and prompt templates are written in.
//
// A file without a header is all body. A header that is not valid YAML is
// not fatal: Parse returns the error (callers report it with the file's
// name) together with what a line-by-line "key: value" reading found, so
// a typo in one field does not lose the file. That fallback knows no
// lists, quoting or nesting; its values are strings.
package frontmatter

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// fallbackLine is a "key: value" line of a header YAML could not parse.
var fallbackLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_]+):\s*(.*)$`) })

// Parse splits content into its header fields and its body (trimmed). meta
// is nil when the file has no header. A header that is not valid YAML, or
// not a mapping, gives an error and the fields the fallback could read; an
// opening "---" without a closing one makes the whole file the body, with
// an error.
func Parse(content []byte) (meta map[string]any, body string, err error) {
	content = bytes.TrimPrefix(content, []byte("\ufeff"))
	text := strings.ReplaceAll(string(content), "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return nil, strings.TrimSpace(text), nil
	}
	header, after, ok := cutClosing(rest)
	if !ok {
		return nil, strings.TrimSpace(text), fmt.Errorf("front matter: no closing \"---\" line")
	}
	body = strings.TrimSpace(after)
	var m map[string]any
	if yerr := yaml.Unmarshal([]byte(header), &m); yerr != nil {
		// Hand-written headers often hold plain values YAML refuses:
		// Cursor's unquoted globs (globs: *.ts, read as an alias) and
		// descriptions with a colon (description: Use when: …). Quote
		// those and try again before giving up.
		if fixed, ok := quotePlain(header); !ok || yaml.Unmarshal([]byte(fixed), &m) != nil {
			return fallback(header), body, fmt.Errorf("front matter is not valid YAML (%w); fix it so every field is read", yerr)
		}
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, body, nil
}

// cutClosing splits s at its first line that is exactly "---".
func cutClosing(s string) (header, after string, ok bool) {
	off := 0
	for off <= len(s) {
		end := strings.IndexByte(s[off:], '\n')
		line, next := s[off:], len(s)+1
		if end >= 0 {
			line, next = s[off:off+end], off+end+1
		}
		if strings.TrimRight(line, " \t") == "---" {
			if next > len(s) {
				return s[:off], "", true
			}
			return s[:off], s[next:], true
		}
		off = next
	}
	return "", "", false
}

// plainLine is a top-level "key: value" line.
var plainLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_-]+):[ \t]+(.*?)[ \t]*$`) })

// quotePlain quotes top-level values that start with "*" or hold ": ";
// ok is false when there is none.
func quotePlain(header string) (string, bool) {
	lines := strings.Split(header, "\n")
	changed := false
	for i, line := range lines {
		g := plainLine().FindStringSubmatch(line)
		if g == nil || g[2] == "" || strings.ContainsAny(g[2][:1], `"'[{|>&!#`) {
			continue
		}
		if strings.HasPrefix(g[2], "*") || strings.Contains(g[2], ": ") {
			lines[i] = g[1] + ": " + strconv.Quote(g[2])
			changed = true
		}
	}
	return strings.Join(lines, "\n"), changed
}

// fallback reads "key: value" lines.
func fallback(header string) map[string]any {
	m := map[string]any{}
	for _, line := range strings.Split(header, "\n") {
		if g := fallbackLine().FindStringSubmatch(strings.TrimRight(line, " \t")); g != nil {
			m[g[1]] = strings.Trim(strings.TrimSpace(g[2]), `"'`)
		}
	}
	return m
}

// String returns meta[key] when it is a non-empty string (trimmed).
func String(meta map[string]any, key string) string {
	s, _ := meta[key].(string)
	return strings.TrimSpace(s)
}

// Bool returns meta[key] when it is true: a YAML boolean or, from the
// fallback reading, the string "true".
func Bool(meta map[string]any, key string) bool {
	switch v := meta[key].(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(strings.TrimSpace(v), "true")
	}
	return false
}

// Strings returns meta[key] as a list of strings: a YAML list (non-string
// elements skipped) or a single string (one element).
func Strings(meta map[string]any, key string) []string {
	switch v := meta[key].(type) {
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out
	case string:
		if strings.TrimSpace(v) == "" {
			return nil
		}
		return []string{strings.TrimSpace(v)}
	}
	return nil
}
