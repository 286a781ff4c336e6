package applypatch

import (
	"fmt"
	"strings"
)

// matchesAsText reports whether a patch-mode diff is the one hunk that
// omp places as text rather than as lines: only "-" and "+" lines (at
// least one "-"), no locator, no line hint, no *** End of File.
func matchesAsText(chunks []Chunk) bool {
	if len(chunks) != 1 {
		return false
	}
	c := chunks[0]
	return len(c.Locators) == 0 && !c.HasContextLines && len(c.OldLines) > 0 && c.LineHint == 0 && !c.EndOfFile
}

// replaceAsText applies such a hunk to text: its removed lines, joined,
// must occur exactly once in text (anywhere, even inside a line) and are
// replaced by its added lines. When they do not occur, the window of as
// many whole lines that is most similar (see bestWindow) is replaced,
// provided it is the only one at least charMatchThreshold similar (or
// relaxedCharThreshold when none is); its indentation is carried over to
// the added lines (see reindent). Every refusal names the file (shown)
// and says what to do, in omp's words.
func replaceAsText(text string, c Chunk, shown string) (string, error) {
	old := strings.Join(c.OldLines, "\n")
	repl := strings.Join(c.NewLines, "\n")
	if old == "" {
		return "", fmt.Errorf("Failed to find expected lines in %s:\n%s", shown, old)
	}
	if i := strings.Index(text, old); i >= 0 {
		if n := strings.Count(text, old); n > 1 {
			return "", occurrencesError(text, old, n, shown)
		}
		return text[:i] + repl + text[i+len(old):], nil
	}
	lines, target := strings.Split(text, "\n"), strings.Split(old, "\n")
	m := bestWindow(lines, target, charMatchThreshold)
	if m.above != 1 && !dominant(m) {
		if relaxed := bestWindow(lines, target, relaxedCharThreshold); relaxed.above == 1 || dominant(relaxed) {
			m = relaxed
		}
	}
	switch {
	case m.above > 1:
		return "", fmt.Errorf("Found %d high-confidence matches in %s. The text must be unique. Please provide more context to make it unique.", m.above, shown)
	case m.above == 0 && m.found:
		return "", fmt.Errorf("Could not find a close enough match in %s. Closest match (%d%% similar) at line %d.", shown, percent(m.confidence), m.start+1)
	case m.above == 0:
		return "", fmt.Errorf("Failed to find expected lines in %s:\n%s", shown, old)
	}
	// The window's text is replaced by the added lines' text: no added
	// lines leave the window one empty line, as in omp.
	actual := lines[m.start : m.start+len(target)]
	out := append([]string(nil), lines[:m.start]...)
	out = append(out, strings.Split(strings.Join(reindent(target, actual, c.NewLines), "\n"), "\n")...)
	out = append(out, lines[m.start+len(target):]...)
	return strings.Join(out, "\n"), nil
}

// dominant reports a best window far enough ahead of the others that omp
// would pick it (and then still refuse it as one of several matches).
func dominant(m windowMatch) bool {
	return m.above > 1 && m.confidence >= dominantFloor && m.confidence-m.second >= dominantGap
}

// occurrencesError lists where old occurs in text (the first maxPreviews
// places, five lines either side) and asks for more context.
func occurrencesError(text, old string, n int, shown string) error {
	lines := strings.Split(text, "\n")
	var previews []string
	for from := 0; len(previews) < maxPreviews; {
		i := strings.Index(text[from:], old)
		if i < 0 {
			break
		}
		at := from + i
		previews = append(previews, preview(lines, strings.Count(text[:at], "\n"), 5))
		from = at + 1
	}
	more := ""
	if n > maxPreviews {
		more = fmt.Sprintf(" (showing first %d of %d)", maxPreviews, n)
	}
	return fmt.Errorf("Found %d occurrences in %s%s:\n\n%s\n\nAdd more context lines to disambiguate.", n, shown, more, strings.Join(previews, "\n\n"))
}
