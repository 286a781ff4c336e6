package commitgen

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// FallbackWarning is printed with a message Fallback wrote.
const FallbackWarning = "Commit generated using fallback due to agent failure"

// Kinds of file Fallback tells apart by name.
var (
	fallbackTestMarks = []string{"/test/", "/tests/", "/__tests__/", "_test.", ".test.", ".spec.", "_spec."}
	fallbackDocExts   = []string{".md", ".txt", ".rst", ".adoc"}
	fallbackConfExts  = []string{".json", ".yaml", ".yml", ".toml", ".xml", ".ini", ".cfg"}
	fallbackStyleExts = []string{".css", ".scss", ".less", ".sass"}
)

// Fallback writes a message without a model, from the names of the
// changed files (omp's fallback when its commit agent fails): the type
// from the kinds of file (test, docs, style, chore for configuration
// only, else refactor), a summary naming the first file and how many
// others, and a body line for each of the first three files.
func Fallback(files []NumstatEntry) Message {
	typ := fallbackType(files)
	verb := map[string]string{"test": "updated tests for", "docs": "updated documentation for", "refactor": "refactored", "style": "formatted", "revert": "reverted changes in"}[typ]
	if verb == "" {
		verb = "updated"
	}
	m := Message{Type: typ}
	first := "files"
	if len(files) > 0 {
		first = path.Base(files[0].Path)
	}
	switch n := len(files) - 1; {
	case n <= 0:
		m.Summary = verb + " " + first
	case n == 1:
		m.Summary = fmt.Sprintf("%s %s and 1 other", verb, first)
	default:
		m.Summary = fmt.Sprintf("%s %s and %d others", verb, first, n)
	}
	for _, f := range files[:min(3, len(files))] {
		m.Details = append(m.Details, "Updated "+path.Base(f.Path))
	}
	return m
}

// fallbackType picks the type Fallback gives a set of files.
func fallbackType(files []NumstatEntry) string {
	if len(files) == 0 {
		return "chore"
	}
	var tests, docs, conf, style, source bool
	for _, f := range files {
		lower, ext := strings.ToLower(f.Path), strings.ToLower(path.Ext(f.Path))
		switch {
		case containsAny(lower, fallbackTestMarks):
			tests = true
		case slices.Contains(fallbackDocExts, ext):
			docs = true
		case slices.Contains(fallbackConfExts, ext):
			conf = true
		case slices.Contains(fallbackStyleExts, ext):
			style = true
		default:
			source = true
		}
	}
	switch {
	case tests && !source && !docs:
		return "test"
	case docs && !source && !tests:
		return "docs"
	case style && !source && !tests:
		return "style"
	case conf && !source && !tests && !docs:
		return "chore"
	}
	return "refactor"
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
