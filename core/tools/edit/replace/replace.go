// Package replace implements text replacement edits: find old text in a
// file and put new text in its place.
//
// Matching is exact first. When the exact text is absent, a whitespace-
// tolerant pass compares whole lines with surrounding white space trimmed
// and inner runs of white space collapsed, which absorbs the indentation
// and spacing slips models make when they retype code; the replacement is
// then re-indented by the difference between the old text's indentation
// and the file's. Last, as in omp, a window of file lines similar enough
// to the old text (see FuzzyThreshold) is taken. A match must be unique
// unless every match is to be replaced; missing and ambiguous matches are
// errors that point at the candidate lines.
package replace

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Match describes how the old text was found.
type Match struct {
	Count    int   // replacements made
	Lines    []int // 1-based first line of each match
	Tolerant bool  // found by the whitespace-tolerant pass
}

// Sentinel errors, for errors.Is.
var (
	ErrEmptyOld  = errors.New("old_text must not be empty.")
	ErrNotFound  = errors.New("old_text not found")
	ErrAmbiguous = errors.New("old_text matches more than once")
)

// MaxCandidates caps how many candidate lines an error lists.
const MaxCandidates = 5

// Replace replaces oldText with newText in text ("\n" line breaks). With
// all false, oldText must match exactly once. path only labels errors.
func Replace(text, oldText, newText string, all bool, path string) (string, Match, error) {
	if oldText == "" {
		return "", Match{}, ErrEmptyOld
	}
	if starts := exactMatches(text, oldText); len(starts) > 0 {
		m := Match{Count: len(starts), Lines: lineNumbers(text, starts)}
		if len(starts) > 1 && !all {
			return "", m, ambiguousExact(text, oldText, len(starts))
		}
		if !all {
			return text[:starts[0]] + newText + text[starts[0]+len(oldText):], m, nil
		}
		return strings.ReplaceAll(text, oldText, newText), m, nil
	}
	out, m, err := replaceTolerant(text, oldText, newText, all, path)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return out, m, err
	}
	out, m, replaced, c, ok := replaceClosest(text, oldText, newText, all)
	if replaced {
		return out, m, nil
	}
	return "", Match{}, notFound(text, oldText, path, c, ok)
}

// exactMatches returns the byte offsets of the non-overlapping occurrences.
func exactMatches(text, sub string) []int {
	var starts []int
	for off := 0; ; {
		i := strings.Index(text[off:], sub)
		if i < 0 {
			return starts
		}
		starts = append(starts, off+i)
		off += i + len(sub)
	}
}

func lineNumbers(text string, offsets []int) []int {
	out := make([]int, len(offsets))
	for i, off := range offsets {
		out[i] = strings.Count(text[:off], "\n") + 1
	}
	return out
}

// normalize trims a line and collapses its inner white space.
func normalize(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// splitBlock splits text into lines, dropping one final empty line left by
// a trailing line break.
func splitBlock(s string) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func replaceTolerant(text, oldText, newText string, all bool, path string) (string, Match, error) {
	old := splitBlock(oldText)
	// Leading and trailing blank lines of the old text carry no signal.
	for len(old) > 0 && strings.TrimSpace(old[0]) == "" {
		old = old[1:]
	}
	for len(old) > 0 && strings.TrimSpace(old[len(old)-1]) == "" {
		old = old[:len(old)-1]
	}
	if len(old) == 0 {
		return "", Match{}, ErrNotFound
	}
	want := make([]string, len(old))
	for i, l := range old {
		want[i] = normalize(l)
	}
	fileLines := strings.Split(text, "\n")
	var starts []int
	for i := 0; i+len(want) <= len(fileLines); {
		ok := true
		for k, w := range want {
			if normalize(fileLines[i+k]) != w {
				ok = false
				break
			}
		}
		if ok {
			starts = append(starts, i)
			i += len(want)
			continue
		}
		i++
	}
	m := Match{Count: len(starts), Tolerant: true}
	for _, s := range starts {
		m.Lines = append(m.Lines, s+1)
	}
	switch {
	case len(starts) == 0:
		return "", Match{}, ErrNotFound
	case len(starts) > 1 && !all:
		return "", m, ambiguous(path, m.Lines)
	}
	newLines := splitBlock(newText)
	if newText == "" {
		newLines = nil
	}
	oldIndent := indentOf(old[0])
	var out []string
	prev := 0
	for _, s := range starts {
		out = append(out, fileLines[prev:s]...)
		out = append(out, reindent(newLines, oldIndent, indentOf(fileLines[s]))...)
		prev = s + len(want)
	}
	out = append(out, fileLines[prev:]...)
	return strings.Join(out, "\n"), m, nil
}

func indentOf(s string) string {
	return s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsSpace))]
}

// reindent moves lines from indentation from to indentation to: a line
// starting with from gets to instead; other lines are kept.
func reindent(lines []string, from, to string) []string {
	if from == to {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, from); ok && strings.TrimSpace(l) != "" {
			out[i] = to + rest
		} else {
			out[i] = l
		}
	}
	return out
}

// Occurrence previews: lines of context either side, and the width a
// preview line is cut to.
const (
	previewContext = 5
	previewWidth   = 80
)

// ambiguousExact reports an old text found count times, with the lines
// around each of its first MaxCandidates occurrences, as the reference
// words it.
func ambiguousExact(text, oldText string, count int) error {
	fileLines := strings.Split(text, "\n")
	var previews []string
	for from := 0; len(previews) < MaxCandidates; {
		i := strings.Index(text[from:], oldText)
		if i < 0 {
			break
		}
		line := strings.Count(text[:from+i], "\n")
		previews = append(previews, preview(fileLines, line))
		from += i + 1
		for from < len(text) && !utf8.RuneStart(text[from]) {
			from++
		}
	}
	more := ""
	if count > MaxCandidates {
		more = fmt.Sprintf(" (showing first %d of %d)", MaxCandidates, count)
	}
	return &matchError{fmt.Sprintf("Found %d occurrences%s:\n\n%s\n\nAdd more context lines to disambiguate.",
		count, more, strings.Join(previews, "\n\n")), ErrAmbiguous}
}

// preview prints the lines around line (0-based) as "  N | text".
func preview(lines []string, line int) string {
	lo, hi := max(0, line-previewContext), min(len(lines), line+previewContext+1)
	out := make([]string, 0, hi-lo)
	for i := lo; i < hi; i++ {
		l := lines[i]
		if r := []rune(l); len(r) > previewWidth {
			l = string(r[:previewWidth-1]) + "…"
		}
		out = append(out, fmt.Sprintf("  %d | %s", i+1, l))
	}
	return strings.Join(out, "\n")
}

func ambiguous(path string, lines []int) error {
	return &matchError{fmt.Sprintf("old_text matches %d places in %s (lines %s). Include more surrounding lines in old_text so it matches exactly one place, or set all to true to replace every match.",
		len(lines), path, joinInts(lines, MaxCandidates)), ErrAmbiguous}
}

// matchError is a user-facing message that unwraps to a sentinel.
type matchError struct {
	msg  string
	kind error
}

func (e *matchError) Error() string { return e.msg }
func (e *matchError) Unwrap() error { return e.kind }

func joinInts(ns []int, limit int) string {
	var parts []string
	for i, n := range ns {
		if i == limit {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, ", ")
}
