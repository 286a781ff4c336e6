package read

import (
	"bytes"
	"container/list"
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/native/outline"
)

// Limits of structural summaries: larger files are paged as usual.
const (
	maxSummaryBytes = 2 << 20
	maxSummaryLines = 20_000
)

// SummaryDetails describes a structural summary: the file's line count,
// how many bodies were left out and how many lines they held.
type SummaryDetails struct {
	Lines       int `json:"lines"`
	ElidedSpans int `json:"elidedSpans"`
	ElidedLines int `json:"elidedLines"`
}

// summaryEligible reports whether a read of r with sel may come back as a
// structural summary: the setting is on, no selector was given, and the
// file is a source file of a supported language, small enough to parse.
func (t *Tool) summaryEligible(r *resolved, sel Selector) bool {
	return t.env.Settings.ReadSummarize && !sel.Raw && !sel.HasLines() &&
		r.info.Size() <= maxSummaryBytes && outline.LanguageOf(r.abs) != ""
}

// summarize renders data (the whole file at r) as a structural summary:
// every line is kept with its usual prefix except the bodies of functions
// and methods, each replaced by one "..." line indented like the body's
// first line, and a footer says how to
// get the verbatim text. ok is false when a summary would not help — the
// file fits in one ordinary page, is too long, does not parse, or has no
// body to drop — and the caller then reads the file as usual.
func (t *Tool) summarize(ctx context.Context, r *resolved, data []byte, mode tool.DisplayMode, d *Details) (string, bool) {
	lines := splitLines(data)
	if len(lines) <= t.env.Settings.OpenEndedLimit() || len(lines) > maxSummaryLines {
		return "", false
	}
	lang := outline.LanguageOf(r.abs)
	minBody := max(t.env.Settings.ReadSummaryMinBody, 1)
	// The trees go through the session's parse cache, which the AST tools
	// use too, so a file summarised and then searched is parsed once.
	spans, err := bodySpans(ctx, t.env.Caches.ParseCache(), lang, r, data, minBody)
	if err != nil {
		return "", false
	}
	if n := t.env.Settings.ReadSummaryMinComment; n > 0 {
		spans = mergeSpans(spans, commentSpans(lines, lang, n))
	}
	if len(spans) == 0 {
		return "", false
	}
	// Rows are added while they fit in the output cap, less room for the
	// footer; a summary cut short says where to read on.
	budget := tool.DefaultMaxBytes - summaryFooterRoom
	out := make([]byte, 0, min(len(data)/2, budget))
	keptLines := len(lines)
	for _, sp := range spans {
		keptLines -= sp.Lines()
	}
	kept := make(map[int]string, keptLines)
	elided, shown, covered := 0, 0, 0 // lines elided, spans shown, last line covered
	var row []byte
	for n := 1; n <= len(lines); n++ {
		row = row[:0]
		end := n
		isSpan := shown < len(spans) && n == spans[shown].Start
		if isSpan {
			body := lines[n-1]
			row = append(row, body[:len(body)-len(strings.TrimLeft(body, " \t"))]...)
			row = append(row, "...\n"...)
			end = spans[shown].End
		} else {
			row = mode.AppendRow(row, n, lines[n-1])
			row = append(row, '\n')
		}
		if len(out)+len(row) > budget {
			break
		}
		out = append(out, row...)
		if isSpan {
			elided += spans[shown].Lines()
			shown++
		} else {
			kept[n] = lines[n-1]
		}
		covered, n = end, end
	}
	if shown == 0 {
		return "", false
	}
	first := spans[0]
	// The footer omp documents: counts, then the selectors that show the
	// elided text (the first region's range as the example).
	out = append(out, "\n["...)
	out = append(out, plural(elided, "line")...)
	out = append(out, " across "...)
	out = append(out, plural(shown, "elided region")...)
	out = append(out, "; read "...)
	out = append(out, r.display...)
	out = append(out, ":raw or a line range like "...)
	out = append(out, r.display...)
	out = append(out, ':')
	out = strconv.AppendInt(out, int64(first.Start), 10)
	out = append(out, '-')
	out = strconv.AppendInt(out, int64(first.End), 10)
	out = append(out, " for verbatim content]"...)
	win := &Window{StartLine: 1, EndLine: covered, TotalLines: len(lines)}
	if covered < len(lines) {
		win.NextOffset, win.TruncatedBy = covered+1, "bytes"
		out = append(out, "\n[The summary stops at line "...)
		out = strconv.AppendInt(out, int64(covered), 10)
		out = append(out, " of "...)
		out = strconv.AppendInt(out, int64(len(lines)), 10)
		out = append(out, " ("...)
		out = append(out, tool.FormatSize(tool.DefaultMaxBytes)...)
		out = append(out, " output limit). Use :"...)
		out = strconv.AppendInt(out, int64(covered+1), 10)
		out = append(out, " to read on.]"...)
	}
	d.Truncation = win
	d.Summary = &SummaryDetails{Lines: len(lines), ElidedSpans: shown, ElidedLines: elided}
	if t.env.ReadCache != nil {
		t.env.ReadCache.RecordSparse(r.abs, kept)
	}
	return string(out), true
}

// summaryFooterRoom is the output kept free for a summary's footers.
const summaryFooterRoom = 1024

// splitLines splits data into lines as the paged read counts them: no
// terminators, a trailing '\r' dropped, no empty last line after a final
// newline.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	lines := make([]string, 0, n)
	s := string(data)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			i = len(s)
		}
		line := s[:i]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		lines = append(lines, line)
		if i == len(s) {
			break
		}
		s = s[i+1:]
	}
	return lines
}

// summaryCacheSize is how many files' body spans are remembered.
const summaryCacheSize = 64

// spanCache remembers body spans by content hash, language and minimum
// body length, so that reading an unchanged file again skips the parse.
var spanCache = newLRU(summaryCacheSize)

// spanKey identifies one parse result.
type spanKey struct {
	hash    xxh3.Uint128
	lang    string
	minBody int
}

// bodySpans returns the body spans of data (the content of r), from the
// cache when it can, parsing through pc (nil: none). Failures (syntax
// errors) are cached too, as an error.
func bodySpans(ctx context.Context, pc *ast.ParseCache, lang string, r *resolved, data []byte, minBody int) ([]outline.Span, error) {
	key := spanKey{xxh3.Hash128(data), lang, minBody}
	if v, ok := spanCache.get(key); ok {
		return v.spans, v.err
	}
	spans, err := outline.BodiesOf(ctx, pc.Native(), lang, r.abs, r.info, data, minBody)
	if ctx.Err() == nil {
		spanCache.put(key, spanResult{spans, err})
	}
	return spans, err
}

// spanResult is a cached outline answer.
type spanResult struct {
	spans []outline.Span
	err   error
}

// lru is a small least-recently-used map, safe for concurrent use.
type lru struct {
	max int

	mu    sync.Mutex
	order *list.List // front = most recent; values are *lruEntry
	items map[spanKey]*list.Element
}

type lruEntry struct {
	key spanKey
	val spanResult
}

func newLRU(n int) *lru {
	return &lru{max: n, order: list.New(), items: map[spanKey]*list.Element{}}
}

func (c *lru) get(k spanKey) (spanResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return spanResult{}, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry).val, true
}

func (c *lru) put(k spanKey, v spanResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		el.Value.(*lruEntry).val = v
		c.order.MoveToFront(el)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry{k, v})
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*lruEntry).key)
	}
}

// commentPrefix is how a line comment starts in each language.
var commentPrefix = map[string]string{
	"go": "//", "javascript": "//", "typescript": "//", "tsx": "//", "rust": "//", "python": "#",
}

// commentSpans finds runs of at least minLines consecutive line comments
// and returns, for each, the lines after its first: the summary keeps the
// first line of a long comment and elides the rest.
func commentSpans(lines []string, lang string, minLines int) []outline.Span {
	prefix := commentPrefix[lang]
	if prefix == "" {
		return nil
	}
	var out []outline.Span
	start := 0 // 1-based first line of the current run; 0 when none
	flush := func(end int) {
		if start > 0 && end-start+1 >= max(minLines, 2) {
			out = append(out, outline.Span{Start: start + 1, End: end})
		}
		start = 0
	}
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), prefix) {
			if start == 0 {
				start = i + 1
			}
			continue
		}
		flush(i)
	}
	flush(len(lines))
	return out
}

// mergeSpans merges comment spans into body spans (both sorted): a
// comment inside an elided body is dropped with it.
func mergeSpans(bodies, comments []outline.Span) []outline.Span {
	if len(comments) == 0 {
		return bodies
	}
	out := make([]outline.Span, 0, len(bodies)+len(comments))
	i := 0
	for _, c := range comments {
		for i < len(bodies) && bodies[i].End < c.Start {
			out = append(out, bodies[i])
			i++
		}
		if i < len(bodies) && bodies[i].Start <= c.End {
			continue // overlaps a body span
		}
		out = append(out, c)
	}
	return append(out, bodies[i:]...)
}
