package applypatch

import (
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// When a patch-mode hunk's lines are not found (or found in several
// places), omp tries smaller forms of the hunk, in this order: without
// the lines it starts and ends with unchanged (trim-common); with runs of
// a repeated unchanged line made one (dedupe-shared); with a block of
// unchanged lines written twice in a row made one (collapse-repeated);
// and, when one line alone changes, that line (single-line). The last two
// are tried only for hunks a locator, line hint or *** End of File
// places.

// variant is a smaller form of a hunk.
type variant struct {
	old, new   []string
	aggressive bool // collapse-repeated or single-line
}

// hunkVariants lists the smaller forms of c worth trying, each once.
func hunkVariants(c Chunk) []variant {
	var out []variant
	old, new := c.OldLines, c.NewLines
	if o, n, ok := trimCommon(old, new); ok {
		out = append(out, variant{o, n, false})
		old, new = o, n
	}
	trimmedOld, trimmedNew := old, new
	if o, n, ok := dedupeShared(old, new); ok {
		out = append(out, variant{o, n, false})
		old, new = o, n
	}
	if o, n, ok := collapseRepeated(old, new); ok {
		out = append(out, variant{o, n, true})
	}
	if o, n, ok := singleChange(trimmedOld, trimmedNew); ok {
		out = append(out, variant{o, n, true})
	}
	aggressive := len(c.Locators) > 0 || c.LineHint > 0 || c.EndOfFile
	seen := map[string]bool{}
	kept := out[:0]
	for _, v := range out {
		key := strings.Join(v.old, "\n") + "||" + strings.Join(v.new, "\n")
		if len(v.old) == 0 && len(v.new) == 0 || seen[key] || v.aggressive && !aggressive {
			continue
		}
		seen[key] = true
		kept = append(kept, v)
	}
	return kept
}

// trimCommon drops the lines old and new begin and end with alike.
func trimCommon(old, new []string) ([]string, []string, bool) {
	start := 0
	for start < len(old) && start < len(new) && old[start] == new[start] {
		start++
	}
	endOld, endNew := len(old), len(new)
	for endOld > start && endNew > start && old[endOld-1] == new[endNew-1] {
		endOld--
		endNew--
	}
	if start == 0 && endOld == len(old) && endNew == len(new) || endOld == start && endNew == start {
		return nil, nil, false
	}
	return old[start:endOld], new[start:endNew], true
}

// sharedLines is the set of old's lines that new holds too.
func sharedLines(old, new []string) map[string]bool {
	shared := map[string]bool{}
	for _, l := range old {
		if slices.Contains(new, l) {
			shared[l] = true
		}
	}
	return shared
}

// dedupeShared makes each run of one repeated shared line a single line.
func dedupeShared(old, new []string) ([]string, []string, bool) {
	shared := sharedLines(old, new)
	collapse := func(lines []string) []string {
		var out []string
		for i := 0; i < len(lines); {
			out = append(out, lines[i])
			j := i + 1
			for j < len(lines) && lines[j] == lines[i] && shared[lines[i]] {
				j++
			}
			i = j
		}
		return out
	}
	o, n := collapse(old), collapse(new)
	if len(o) == len(old) && len(n) == len(new) {
		return nil, nil, false
	}
	return o, n, true
}

// collapseRepeated removes the second copy of a block (two lines or
// more, all shared) written twice in a row.
func collapseRepeated(old, new []string) ([]string, []string, bool) {
	shared := sharedLines(old, new)
	collapse := func(lines []string) []string {
		out := slices.Clone(lines)
		for i := 0; i < len(out); {
			collapsed := false
			for size := (len(out) - i) / 2; size >= 2; size-- {
				first, second := out[i:i+size], out[i+size:i+2*size]
				if !allShared(first, shared) || !slices.Equal(first, second) {
					continue
				}
				out = slices.Delete(out, i+size, i+2*size)
				collapsed = true
				break
			}
			if !collapsed {
				i++
			}
		}
		return out
	}
	o, n := collapse(old), collapse(new)
	if len(o) == len(old) && len(n) == len(new) {
		return nil, nil, false
	}
	return o, n, true
}

func allShared(lines []string, shared map[string]bool) bool {
	for _, l := range lines {
		if !shared[l] {
			return false
		}
	}
	return true
}

// singleChange is the one line that differs between old and new, when
// they have as many lines and only one differs.
func singleChange(old, new []string) ([]string, []string, bool) {
	if len(old) != len(new) || len(old) == 0 {
		return nil, nil, false
	}
	changed := -1
	for i := range old {
		if old[i] != new[i] {
			if changed >= 0 {
				return nil, nil, false
			}
			changed = i
		}
	}
	if changed < 0 {
		return nil, nil, false
	}
	return old[changed : changed+1], new[changed : changed+1], true
}

// nearLocator finds line (trimmed) after the locator's line at
// locatorAt, the second such line when preferSecond and there are two,
// else the nearest before it; -1 when it is nowhere.
func nearLocator(lines []string, line string, locatorAt int, preferSecond bool) int {
	want := jstext.Trim(line)
	var after []int
	for i := locatorAt + 1; i < len(lines); i++ {
		if jstext.Trim(lines[i]) == want {
			after = append(after, i)
		}
	}
	switch {
	case len(after) > 1 && preferSecond:
		return after[1]
	case len(after) > 0:
		return after[0]
	}
	for i := locatorAt - 1; i >= 0; i-- {
		if jstext.Trim(lines[i]) == want {
			return i
		}
	}
	return -1
}
