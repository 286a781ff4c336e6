package applypatch

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// The diff hunks of the edit tool's patch mode (one file per call) are
// looser than an Update File section: a hunk may start with a unified
// header ("@@ -12,4 +12,5 @@ func f"), a locator ("@@ func f"), a bare
// "@@" or nothing; a line without a prefix is context; "..." lines stand
// for skipped context; git metadata (diff --git, index, ---/+++ …) and a
// *** Begin Patch / *** End Patch wrapper are ignored. ParseDiffHunks reads
// them into the Chunks the applier takes, so both modes find lines the
// same way and fail with the same texts.

// Lines of a diff that carry no hunk content. The *** markers name files,
// which a single-file diff must not hold more than one of.
var (
	fileMarkers     = []string{"*** Update File:", "*** Add File:", "*** Delete File:", "diff --git "}
	metadataMarkers = []string{"index ", "--- ", "+++ ", "new file mode ", "deleted file mode ", "rename from ", "rename to ",
		"similarity index ", "dissimilarity index ", "old mode ", "new mode "}
	wrapperMarkers = []string{beginMarker, endMarker}
)

var (
	unifiedHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^@@\s*-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*@@(?:\s*(.*))?$`)
	})
	lineHint = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^lines?\s+(\d+)(?:\s*-\s*(\d+))?(?:\s*@@)?$`)
	})
	topOfFile = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(top|start|beginning)\s+of\s+file$`)
	})
	emptyMarkers = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^@@\s*@@$`)
	})
	numberedLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(\d{1,6})\s+(.+)$`)
	})
)

// noLines is the error for a hunk without lines.
const noLines = "Hunk does not contain any lines"

// ErrNoHunks is returned for a diff with nothing to apply.
var ErrNoHunks = errors.New("Diff contains no hunks")

// ParseDiffHunks reads the hunks of a single-file diff (see the comment
// above). Errors say which line is wrong and how.
func ParseDiffHunks(text string) ([]Chunk, error) {
	if n := countFiles(text); n > 1 {
		return nil, fmt.Errorf("Diff contains %d file markers. Single-file patches cannot contain multi-file markers.", n)
	}
	lines := diffBody(text)
	var chunks []Chunk
	for i := 0; i < len(lines); {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			i++
			continue
		case !isContentLine(line) && hasPrefix(trimmed, metadataMarkers):
			i++
			continue
		case strings.HasPrefix(trimmed, "@@") && allBlank(lines[i+1:]):
			i = len(lines)
			continue
		}
		c, n, err := parseDiffHunk(lines[i:], i+1)
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, c)
		i += n
	}
	if len(chunks) == 0 {
		return nil, ErrNoHunks
	}
	return chunks, nil
}

// parseDiffHunk reads one hunk from the start of lines (first is the 1-based
// line number of lines[0], for errors) and returns it with the number of
// lines it took.
func parseDiffHunk(lines []string, first int) (Chunk, int, error) {
	var c Chunk
	var contexts []string
	start := 0
	head := strings.TrimRight(lines[0], " \t")
	if strings.HasPrefix(lines[0], "@@") {
		start = 1
		switch m := unifiedHeader().FindStringSubmatch(head); {
		case head == bareContext || emptyMarkers().MatchString(head):
		case m != nil:
			oldStart, _ := strconv.Atoi(m[1])
			newStart, _ := strconv.Atoi(m[3])
			if oldStart < 1 || newStart < 1 {
				return c, 0, &ParseError{Msg: "Line numbers in @@ header must be >= 1", Line: first}
			}
			c.LineHint = oldStart
			if ctx := strings.TrimSpace(m[5]); ctx != "" {
				contexts = append(contexts, ctx)
			}
		case !strings.HasPrefix(head, contextWithText):
			// "@@TEXT": the locator is TEXT, trimmed.
			if ctx := jstext.Trim(head[len(bareContext):]); ctx != "" {
				contexts = append(contexts, ctx)
			}
		default:
			value := strings.TrimSpace(strings.TrimPrefix(head, "@@"))
			value = strings.TrimSpace(strings.TrimPrefix(value, "@@"))
			if hint := lineHint().FindStringSubmatch(value); hint != nil {
				n, _ := strconv.Atoi(hint[1])
				if n < 1 {
					return c, 0, &ParseError{Msg: "Line hint must be >= 1", Line: first}
				}
				c.LineHint = n
			} else if topOfFile().MatchString(value) {
				c.LineHint = 1
			} else if value != "" {
				// The locator is kept as written after "@@ " (its inner
				// spaces and indentation matter for the match).
				contexts = append(contexts, strings.TrimPrefix(head, contextWithText))
			}
		}
		// Further "@@ TEXT" lines narrow the locator.
		for start < len(lines) && strings.HasPrefix(lines[start], "@@") {
			next := strings.TrimRight(lines[start], " \t")
			if next != bareContext && !strings.HasPrefix(next, contextWithText) {
				break
			}
			if ctx := strings.TrimPrefix(next, contextWithText); strings.TrimSpace(ctx) != "" && next != bareContext {
				contexts = append(contexts, ctx)
			}
			start++
		}
	}
	if start >= len(lines) {
		return c, 0, &ParseError{Msg: noLines, Line: first + 1}
	}
	c.Locators = contexts
	if len(contexts) > 0 {
		// The innermost locator is the one nearest the change.
		c.Context, c.HasContext = contexts[len(contexts)-1], true
	}
	parsed := 0
	i := start
	for ; i < len(lines); i++ {
		line := lines[i]
		if line == "" && parsed > 0 && i+1 < len(lines) && strings.HasPrefix(strings.TrimLeft(lines[i+1], " \t"), "@@") {
			break
		}
		if !isContentLine(line) && strings.HasPrefix(line, eofMarker) && strings.TrimRight(line, " \t") == eofMarker {
			if parsed == 0 {
				return c, 0, &ParseError{Msg: noLines, Line: first + 1}
			}
			c.EndOfFile = true
			parsed++
			i++
			break
		}
		if t := strings.TrimSpace(line); t == "..." || t == "…" {
			c.HasContextLines = true
			parsed++
			continue
		}
		switch {
		case line == "":
			c.HasContextLines = true
			c.OldLines = append(c.OldLines, "")
			c.NewLines = append(c.NewLines, "")
		case line[0] == ' ':
			c.HasContextLines = true
			c.OldLines = append(c.OldLines, line[1:])
			c.NewLines = append(c.NewLines, line[1:])
		case line[0] == '+':
			c.NewLines = append(c.NewLines, line[1:])
		case line[0] == '-':
			c.OldLines = append(c.OldLines, line[1:])
		case !strings.HasPrefix(line, "@@"):
			c.HasContextLines = true
			c.OldLines = append(c.OldLines, line)
			c.NewLines = append(c.NewLines, line)
		default:
			if parsed == 0 {
				return c, 0, &ParseError{Msg: fmt.Sprintf("Unexpected line in hunk: '%s'. Lines must start with ' ' (context), '+' (add), or '-' (remove)", line), Line: first + 1}
			}
			return finishHunk(c), i, nil
		}
		parsed++
	}
	if parsed == 0 {
		return c, 0, &ParseError{Msg: noLines, Line: first + start}
	}
	return finishHunk(c), i, nil
}

// finishHunk tidies a parsed hunk: see dropRepeatedContext and
// dropLineNumbers.
func finishHunk(c Chunk) Chunk { return dropLineNumbers(dropRepeatedContext(c)) }

// dropRepeatedContext forgets an "@@ TEXT" locator that the hunk's first
// line repeats (the usual way to write a hunk: the signature as locator
// and as first context line): the applier looks for the hunk's lines
// after the locator, where the repeated line is not.
func dropRepeatedContext(c Chunk) Chunk {
	if c.HasContext && len(c.OldLines) > 0 && strings.TrimSpace(c.OldLines[0]) == strings.TrimSpace(c.Context) {
		c.Context, c.HasContext = "", false
	}
	return c
}

// dropLineNumbers drops line numbers a model copied from numbered read
// output ("12  foo") when most lines of the hunk carry them in sequence.
func dropLineNumbers(c Chunk) Chunk {
	var nonBlank []string
	for _, l := range append(append([]string(nil), c.OldLines...), c.NewLines...) {
		if strings.TrimSpace(l) != "" {
			nonBlank = append(nonBlank, l)
		}
	}
	if len(nonBlank) < 2 {
		return c
	}
	var nums []int
	for _, l := range nonBlank {
		if m := numberedLine().FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			nums = append(nums, n)
		}
	}
	if len(nums) < max(2, (len(nonBlank)*3+4)/5) {
		return c
	}
	sequential := 0
	for i := 1; i < len(nums); i++ {
		if nums[i] == nums[i-1]+1 {
			sequential++
		}
	}
	if len(nums) >= 3 && sequential < max(1, len(nums)-2) {
		return c
	}
	strip := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			if m := numberedLine().FindStringSubmatch(l); m != nil {
				l = m[2]
			}
			out[i] = l
		}
		return out
	}
	c.OldLines, c.NewLines = strip(c.OldLines), strip(c.NewLines)
	return c
}

// diffBody returns the lines of text without trailing blank lines, an
// enclosing *** Begin Patch / *** End Patch, and file and metadata lines.
func diffBody(text string) []string {
	lines := strings.Split(text, "\n")
	for len(lines) > 0 {
		last := lines[len(lines)-1]
		if last != "" && (strings.TrimSpace(last) != "" || isContentLine(last)) {
			break
		}
		lines = lines[:len(lines)-1]
	}
	if len(lines) > 0 && isWrapper(strings.TrimSpace(lines[0])) {
		lines = lines[1:]
	}
	if len(lines) > 0 && isWrapper(strings.TrimSpace(lines[len(lines)-1])) {
		lines = lines[:len(lines)-1]
	}
	out := lines[:0:0]
	for _, l := range lines {
		if isContentLine(l) || !hasPrefix(strings.TrimSpace(l), fileMarkers) && !hasPrefix(strings.TrimSpace(l), metadataMarkers) {
			out = append(out, l)
		}
	}
	return out
}

// countFiles is how many files the file markers of text name (or, when
// they name none, how often the most frequent marker occurs).
func countFiles(text string) int {
	paths := map[string]bool{}
	counts := map[string]int{}
	most := 0
	for _, l := range strings.Split(text, "\n") {
		if isContentLine(l) {
			continue
		}
		t := strings.TrimSpace(l)
		for _, m := range fileMarkers {
			if !strings.HasPrefix(t, m) {
				continue
			}
			if p := markerPath(t, m); p != "" {
				paths[p] = true
			}
			counts[m]++
			most = max(most, counts[m])
			break
		}
	}
	if len(paths) > 0 {
		return len(paths)
	}
	return most
}

// markerPath is the path a file marker line names.
func markerPath(line, marker string) string {
	if marker != "diff --git " {
		return strings.TrimSpace(strings.TrimPrefix(line, marker))
	}
	f := strings.Fields(line)
	p := ""
	switch {
	case len(f) > 3:
		p = f[3]
	case len(f) > 2:
		p = f[2]
	}
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		p = p[2:]
	}
	return p
}

// isContentLine reports whether line is a hunk line (' ', '+' or '-'
// prefix), not a ---/+++ file header.
func isContentLine(line string) bool {
	switch {
	case line == "":
		return false
	case line[0] == ' ':
		return true
	case line[0] == '+':
		return !strings.HasPrefix(line, "+++ ")
	case line[0] == '-':
		return !strings.HasPrefix(line, "--- ")
	}
	return false
}

func isWrapper(t string) bool { return t == "***" || hasPrefix(t, wrapperMarkers) }

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func allBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// CreateContent is the content a patch-mode create writes: diff as given,
// or without its '+' prefixes when every non-empty line has one (a model
// writing the new file as an addition), ending in a line break.
func CreateContent(diff string) string {
	lines := strings.Split(diff, "\n")
	prefixed, any := true, false
	for _, l := range lines {
		if l != "" {
			any = true
			prefixed = prefixed && strings.HasPrefix(l, "+")
		}
	}
	if any && prefixed {
		for i, l := range lines {
			if s, ok := strings.CutPrefix(l, "+ "); ok {
				lines[i] = s
			} else {
				lines[i] = strings.TrimPrefix(l, "+")
			}
		}
		diff = strings.Join(lines, "\n")
	}
	if !strings.HasSuffix(diff, "\n") {
		diff += "\n"
	}
	return diff
}
