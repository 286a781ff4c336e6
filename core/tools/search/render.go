package search

import (
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/pathspec"
)

// render formats the shown matches, records them in the read cache and
// builds the result.
func (t *Tool) render(f *found, targets []target, missing []string) *tool.Result {
	d := &Details{ScopePath: t.scope(targets), MissingPaths: missing, ResultLimitReached: f.limitCut,
		Files: []string{}, FileMatches: []FileMatches{}}
	var shown []hit
	if f.singleFile {
		shown = f.hits[:min(VisibleLimit, len(f.hits))]
	} else {
		shown = roundRobin(f.hits, VisibleLimit)
	}
	d.MatchLimitReached = len(f.hits) > len(shown)
	d.MatchCount = len(shown)
	note := pathspec.SkippedNote(missing)
	if len(shown) == 0 {
		text := "No matches found"
		if note != "" {
			text += "\n" + note
		}
		return tool.TextResult(text, d)
	}

	var groups []string
	for start := 0; start < len(shown); {
		end := start + 1
		for end < len(shown) && shown[end].abs == shown[start].abs {
			end++
		}
		g := t.renderFile(shown[start:end], d)
		if !f.singleFile {
			g = "# " + t.env.DisplayPath(shown[start].abs) + "\n" + g
		}
		groups = append(groups, g)
		start = end
	}
	out := strings.Join(groups, "\n\n")
	tr := tool.TruncateHead(out, tool.Limits{MaxLines: tool.NoLineLimit})
	text := tr.Content
	if tr.Truncated {
		d.Truncated, d.Truncation = true, &tr
		text += "\n\n[Output cut at " + tool.FormatSize(tool.DefaultMaxBytes) + "; narrow the pattern or paths to see the rest.]"
	}
	if d.MatchLimitReached {
		text += "\n\n[" + strconv.Itoa(len(shown)) + " matches shown; more exist. Narrow the pattern or paths, or pass skip to page.]"
	}
	if note != "" {
		text += "\n\n" + note
	}
	return tool.TextResult(text, d)
}

// renderFile formats the hits of one file and records its whole lines in
// the read cache.
func (t *Tool) renderFile(hits []hit, d *Details) string {
	abs, immutable := hits[0].abs, hits[0].immutable
	mode := t.env.DisplayMode(false, immutable)
	if mode == tool.DisplayPlain {
		mode = tool.DisplayLineNumbers
	}
	// A line shown cut is anchored with the hash of the whole line,
	// read from the file (its line only) when the anchor needs it.
	var src *lineSource
	if mode == tool.DisplayHashline {
		src = &lineSource{abs: abs}
		defer src.close()
	}
	var b strings.Builder
	record := map[int]string{}
	last := 0
	// emit writes line n; when it is cut, offset is where the line, or
	// the match of which it is line skip+1, starts in the text searched.
	emit := func(mark byte, n int, text string, cut bool, offset int64, skip int) {
		if n <= last {
			return
		}
		last = n
		text = strings.TrimSuffix(text, "\r")
		if n == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		ref := ""
		if cut {
			d.LinesTruncated = true
			if src != nil {
				if sum, ok := src.hash(n, offset, skip, text); ok {
					ref = hashline.Ref{Line: n, Hash: sum}.String()
				}
			}
		} else {
			record[n] = text
		}
		if ref == "" {
			ref = mode.LineRef(n, text)
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte(mark)
		b.WriteString(ref)
		b.WriteByte('|')
		b.WriteString(text)
	}
	for _, h := range hits {
		for _, c := range h.Before {
			emit(' ', c.Line, c.Text, c.Truncated, c.Offset, 0)
		}
		for i, piece := range strings.Split(h.Text, "\n") {
			emit('*', h.Line+i, piece, h.Truncated, h.Offset, i)
		}
		for _, c := range h.After {
			emit(' ', c.Line, c.Text, c.Truncated, c.Offset, 0)
		}
	}
	display := t.env.DisplayPath(abs)
	d.Files = append(d.Files, display)
	d.FileMatches = append(d.FileMatches, FileMatches{Path: display, Count: len(hits)})
	d.FileCount = len(d.Files)
	if !immutable && t.env.ReadCache != nil {
		t.env.ReadCache.RecordSparse(abs, record)
	}
	return b.String()
}

// scope renders the searched roots.
func (t *Tool) scope(targets []target) string {
	parts := make([]string, len(targets))
	for i, tg := range targets {
		if tg.immutable {
			parts[i] = tg.Input
			continue
		}
		p := t.env.DisplayPath(tg.Base)
		if tg.Glob != "" {
			p = strings.TrimPrefix(strings.TrimSuffix(p, "/")+"/"+tg.Glob, "./")
		}
		parts[i] = p
	}
	return strings.Join(parts, ", ")
}

func itoa(n int) string { return strconv.Itoa(n) }
