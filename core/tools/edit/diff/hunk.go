package diff

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// Hunk is a group of nearby changes with surrounding context lines.
// OldStart and NewStart are 0-based; OldLines/NewLines count the lines the
// hunk covers on each side (context plus deleted, context plus inserted).
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Edit
}

// Hunks groups an edit script into hunks with up to context unchanged
// lines around each change; changes closer than 2·context lines share a
// hunk.
func Hunks(edits []Edit, context int) []Hunk {
	var hunks []Hunk
	prevStop := 0
	for i := 0; i < len(edits); {
		if edits[i].Kind == Equal {
			i++
			continue
		}
		start := max(i-context, prevStop)
		end := i // exclusive end of the last change so far
		for {
			for end < len(edits) && edits[end].Kind != Equal {
				end++
			}
			gap := end
			for gap < len(edits) && edits[gap].Kind == Equal && gap-end < 2*context+1 {
				gap++
			}
			if gap < len(edits) && edits[gap].Kind != Equal && gap-end <= 2*context {
				end = gap
				continue
			}
			break
		}
		stop := min(end+context, len(edits))
		for k := end; k < stop; k++ {
			if edits[k].Kind != Equal {
				stop = k
				break
			}
		}
		h := Hunk{Lines: edits[start:stop]}
		h.OldStart, h.NewStart = edits[start].OldLine, edits[start].NewLine
		for _, e := range h.Lines {
			if e.Kind != Insert {
				h.OldLines++
			}
			if e.Kind != Delete {
				h.NewLines++
			}
		}
		hunks = append(hunks, h)
		i, prevStop = stop, stop
	}
	return hunks
}

// Unified renders the difference between two texts as a unified diff with
// three lines of context, headed "--- a/<name>" / "+++ b/<name>"; it is
// "" when the texts are equal. A side whose last line has no line break
// gets the "\ No newline at end of file" marker after that line.
func Unified(name, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	a, aFinal := textfile.Lines(oldText)
	b, bFinal := textfile.Lines(newText)
	return UnifiedScript(name, Lines(a, b), len(a), len(b), aFinal, bFinal)
}

// UnifiedScript is Unified for a script already computed by Lines over
// texts of oldCount and newCount lines whose final line breaks are
// oldFinal and newFinal.
func UnifiedScript(name string, edits []Edit, oldCount, newCount int, oldFinal, newFinal bool) string {
	// A change of only the final line break shows as a change of the last
	// line: make it differ so the script contains it.
	if oldFinal != newFinal && oldCount > 0 && newCount > 0 {
		edits = splitLastEqual(edits, oldCount-1, newCount-1)
	}
	if FirstChange(edits) == 0 {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", name, name)
	for _, h := range Hunks(edits, 3) {
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", span(h.OldStart, h.OldLines), span(h.NewStart, h.NewLines))
		for _, e := range h.Lines {
			sb.WriteByte(byte(e.Kind))
			sb.WriteString(e.Text)
			sb.WriteByte('\n')
			lastOld := e.Kind != Insert && e.OldLine == oldCount-1 && !oldFinal
			lastNew := e.Kind != Delete && e.NewLine == newCount-1 && !newFinal
			if lastOld && e.Kind == Delete || lastNew && e.Kind == Insert || lastOld && lastNew {
				sb.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return sb.String()
}

// FirstChange returns the 1-based line of the new text where the first
// change of a script is, or 0 when the script changes nothing. A deletion
// counts at the line that follows it.
func FirstChange(edits []Edit) int {
	for _, e := range edits {
		if e.Kind != Equal {
			return e.NewLine + 1
		}
	}
	return 0
}

// splitLastEqual turns an Equal edit pairing old line i with new line j
// into a Delete and an Insert.
func splitLastEqual(edits []Edit, i, j int) []Edit {
	for k, e := range edits {
		if e.Kind == Equal && e.OldLine == i && e.NewLine == j {
			out := append([]Edit(nil), edits[:k]...)
			out = append(out, Edit{Delete, e.Text, i, j}, Edit{Insert, e.Text, i + 1, j})
			return append(out, edits[k+1:]...)
		}
	}
	return edits
}

// span formats a hunk range: 1-based start and count; an empty range names
// the line before it.
func span(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

// ApplyFuzzy applies hunks (made against some earlier version of target)
// to target. Each hunk is placed where its deleted lines match exactly and
// at most fuzz of its context lines differ (and not all of them, when it
// has any); positions with fewer differences win, then positions nearer
// the hunk's expected place (its original start shifted by the previous
// hunks' growth). Hunks must be in order and may not overlap once placed.
// ok is false when a hunk cannot be placed.
func ApplyFuzzy(target []string, hunks []Hunk, fuzz int) (out []string, ok bool) {
	out = make([]string, 0, len(target))
	cursor, shift := 0, 0
	for _, h := range hunks {
		want := h.OldStart + shift
		at, found := -1, false
		for f := 0; f <= fuzz && !found; f++ {
			for dist := 0; ; dist++ {
				lo, hi := want-dist, want+dist
				if lo < cursor && hi+h.OldLines > len(target) {
					break
				}
				if lo >= cursor && fits(target, h, lo, f) {
					at, found = lo, true
					break
				}
				if dist > 0 && hi >= cursor && hi+h.OldLines <= len(target) && fits(target, h, hi, f) {
					at, found = hi, true
					break
				}
			}
		}
		if !found {
			return nil, false
		}
		out = append(out, target[cursor:at]...)
		k := at
		for _, e := range h.Lines {
			switch e.Kind {
			case Equal: // keep the target's own text of a context line
				out = append(out, target[k])
				k++
			case Delete:
				k++
			case Insert:
				out = append(out, e.Text)
			}
		}
		cursor = at + h.OldLines
		shift = at - h.OldStart + h.NewLines - h.OldLines
	}
	return append(out, target[cursor:]...), true
}

// fits reports whether h's old side matches target at position at with
// exactly f differing context lines.
func fits(target []string, h Hunk, at, f int) bool {
	if at < 0 || at+h.OldLines > len(target) {
		return false
	}
	diffs, ctx := 0, 0
	k := at
	for _, e := range h.Lines {
		switch e.Kind {
		case Insert:
			continue
		case Delete:
			if target[k] != e.Text {
				return false
			}
		case Equal:
			ctx++
			if target[k] != e.Text {
				diffs++
				if diffs > f {
					return false
				}
			}
		}
		k++
	}
	return diffs == f && (ctx == 0 || diffs < ctx)
}
