package commitgen

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// FileDiff is the part of a unified git diff about one file.
type FileDiff struct {
	Path      string // the file's path after the change (b/ side)
	Content   string // the section, from its "diff --git" line to the next
	Binary    bool   // git shows no text hunks for it ("Binary files … differ" or a binary patch)
	Additions int    // "+" lines
	Deletions int    // "-" lines
}

// Hunk is one "@@" block of a file's diff.
type Hunk struct {
	Index              int    // 0-based position in the file's diff
	Header             string // the "@@ -a,b +c,d @@" line
	OldStart, OldLines int    // the range replaced in the old file
	NewStart, NewLines int    // the range it became in the new file
	Content            string // the header line and the hunk's lines
}

// diffHeader reads the paths of a "diff --git a/X b/Y" line.
var diffHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^diff --git a/(.+?) b/(.+)$`)
})

// ParseFileDiffs splits a unified git diff into its files. Sections
// whose first line is not a "diff --git a/… b/…" header are skipped.
func ParseFileDiffs(diff string) []FileDiff {
	var out []FileDiff
	for i, part := range strings.Split(diff, "\ndiff --git ") {
		if i > 0 {
			part = "diff --git " + part
		}
		if strings.TrimSpace(part) == "" {
			continue
		}
		first, _, _ := strings.Cut(part, "\n")
		m := diffHeader().FindStringSubmatch(first)
		if m == nil {
			continue
		}
		fd := FileDiff{Path: m[2], Content: part}
		for _, line := range strings.Split(part, "\n") {
			switch {
			case strings.HasPrefix(line, "Binary files ") || line == "GIT binary patch":
				fd.Binary = true
			case strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---"):
			case strings.HasPrefix(line, "+"):
				fd.Additions++
			case strings.HasPrefix(line, "-"):
				fd.Deletions++
			}
		}
		out = append(out, fd)
	}
	return out
}

// hunkHeader reads the ranges of an "@@ -a,b +c,d @@" line; a missing
// count means 1.
var hunkHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@@\s-(\d+)(?:,(\d+))?\s\+(\d+)(?:,(\d+))?\s@@`)
})

// Hunks splits a file's diff into its hunks (none for a binary file).
func (fd FileDiff) Hunks() []Hunk {
	if fd.Binary {
		return nil
	}
	var hunks []Hunk
	var lines []string
	flush := func() {
		if len(hunks) > 0 && lines != nil {
			hunks[len(hunks)-1].Content = strings.Join(lines, "\n")
		}
	}
	for _, line := range strings.Split(fd.Content, "\n") {
		if strings.HasPrefix(line, "@@") {
			flush()
			h := Hunk{Index: len(hunks), Header: line}
			if m := hunkHeader().FindStringSubmatch(line); m != nil {
				h.OldStart, h.OldLines = atoiOr(m[1], 0), atoiOr(m[2], 1)
				h.NewStart, h.NewLines = atoiOr(m[3], 0), atoiOr(m[4], 1)
			}
			hunks = append(hunks, h)
			lines = []string{line}
			continue
		}
		if len(hunks) > 0 {
			lines = append(lines, line)
		}
	}
	flush()
	return hunks
}

// Header returns the lines of the file's diff before its first hunk
// (the "diff --git", index, mode and ---/+++ lines).
func (fd FileDiff) Header() string {
	if i := strings.Index(fd.Content, "\n@@"); i >= 0 {
		return fd.Content[:i]
	}
	if strings.HasPrefix(fd.Content, "@@") {
		return ""
	}
	return fd.Content
}

// atoiOr parses s, or returns def when s is empty or not a number.
func atoiOr(s string, def int) int {
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}

// NumstatEntry is one line of `git diff --numstat`: lines added and
// removed in a file (0 and 0 for a binary file).
type NumstatEntry struct {
	Path      string `json:"path"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
}

// ParseNumstat reads `git diff --numstat` output; a renamed file is named
// by its new path.
func ParseNumstat(out string) []NumstatEntry {
	var entries []NumstatEntry
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) < 3 {
			continue
		}
		entries = append(entries, NumstatEntry{Path: renamedTo(parts[2]), Additions: atoiOr(parts[0], 0), Deletions: atoiOr(parts[1], 0)})
	}
	return entries
}

// renamedTo returns the new path of a rename as git's summaries write it
// ("dir/{old => new}/f" or "old => new"), else p trimmed.
func renamedTo(p string) string {
	if open := strings.IndexByte(p, '{'); open >= 0 {
		if arrow := strings.Index(p[open:], " => "); arrow >= 0 {
			arrow += open
			if end := strings.IndexByte(p[arrow:], '}'); end >= 0 {
				end += arrow
				return p[:open] + strings.TrimSpace(p[arrow+4:end]) + p[end+1:]
			}
		}
	}
	if _, after, ok := strings.Cut(p, " => "); ok {
		return strings.TrimSpace(after)
	}
	return strings.TrimSpace(p)
}
