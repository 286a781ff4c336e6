package tool

import (
	"container/list"
	"maps"
	"path/filepath"
	"strings"
	"sync"
)

// MaxReadCachePaths is how many files a session's read cache remembers;
// the least recently recorded path is dropped first.
const MaxReadCachePaths = 30

// ReadCache remembers, per file, the line texts the model has been shown
// (by read, search, and the edits it made), so that an edit whose anchors
// went stale can be replayed on what the model saw and merged onto the
// current file.
//
// It is not a read accelerator and it is never invalidated by writes.
// Instead, records conflict: when a new record disagrees with a cached
// line (same line number, different text) or with the known line count,
// the file's snapshot is replaced by the new record alone, because the
// file has changed since the old lines were seen. Records that agree are
// merged. Safe for concurrent use.
type ReadCache struct {
	max int

	mu      sync.Mutex
	order   *list.List               // front = most recently recorded; values are *Snapshot
	entries map[string]*list.Element // by absolute clean path
}

// Snapshot is what is known of one file: some of its lines, by number.
type Snapshot struct {
	Path       string         // absolute, clean
	Lines      map[int]string // 1-based line number → text without terminator
	TotalLines int            // line count of the file when it was seen whole to its end; 0 if unknown
}

// NewReadCache returns an empty cache holding MaxReadCachePaths paths.
func NewReadCache() *ReadCache {
	return &ReadCache{max: MaxReadCachePaths, order: list.New(), entries: map[string]*list.Element{}}
}

// RecordContiguous records lines[i] as line firstLine+i of path. When the
// record reaches the end of the file, totalLines is the file's line count
// (else 0). An empty record is ignored.
func (c *ReadCache) RecordContiguous(path string, firstLine int, lines []string, totalLines int) {
	if len(lines) == 0 || firstLine < 1 {
		return
	}
	m := make(map[int]string, len(lines))
	for i, l := range lines {
		m[firstLine+i] = l
	}
	c.record(path, m, totalLines)
}

// RecordSparse records scattered lines of path (line number → text), as a
// search shows them.
func (c *ReadCache) RecordSparse(path string, lines map[int]string) {
	if len(lines) == 0 {
		return
	}
	c.record(path, maps.Clone(lines), 0)
}

func (c *ReadCache) record(path string, lines map[int]string, total int) {
	key := cleanPath(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		s := el.Value.(*Snapshot)
		c.order.MoveToFront(el)
		if conflicts(s, lines, total) {
			s.Lines, s.TotalLines = lines, total
			return
		}
		maps.Copy(s.Lines, lines)
		if total > 0 {
			s.TotalLines = total
		}
		return
	}
	c.entries[key] = c.order.PushFront(&Snapshot{Path: key, Lines: lines, TotalLines: total})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*Snapshot).Path)
	}
}

// conflicts reports whether a new record disagrees with a snapshot.
func conflicts(s *Snapshot, lines map[int]string, total int) bool {
	if total > 0 && s.TotalLines > 0 && total != s.TotalLines {
		return true
	}
	for n, text := range lines {
		if old, ok := s.Lines[n]; ok && old != text {
			return true
		}
		if s.TotalLines > 0 && n > s.TotalLines {
			return true
		}
	}
	if total > 0 {
		for n := range s.Lines {
			if n > total {
				return true
			}
		}
	}
	return false
}

// Get returns a copy of path's snapshot.
func (c *ReadCache) Get(path string) (Snapshot, bool) {
	key := cleanPath(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return Snapshot{}, false
	}
	s := el.Value.(*Snapshot)
	return Snapshot{Path: s.Path, Lines: maps.Clone(s.Lines), TotalLines: s.TotalLines}, true
}

// Forget drops path's snapshot (after a delete).
func (c *ReadCache) Forget(path string) {
	key := cleanPath(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.Remove(el)
		delete(c.entries, key)
	}
}

// Len returns the number of paths remembered.
func (c *ReadCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

func cleanPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// RecordText records the whole text of path as the model now knows it
// (after a write or an edit): lines split as the read tool shows them —
// no terminators, no trailing '\r', no byte order mark on line 1 — with
// the line count known.
func (c *ReadCache) RecordText(path, text string) {
	lines := SplitDisplayLines(text)
	c.RecordContiguous(path, 1, lines, len(lines))
}

// SplitDisplayLines splits text into lines as the read tool shows them:
// split at every '\n', so a final terminator is followed by an empty last
// line and "" is one empty line (as omp shows files), a '\r' before the
// '\n' dropped, a UTF-8 byte order mark before line 1 dropped.
func SplitDisplayLines(text string) []string {
	text = strings.TrimPrefix(text, "\uFEFF")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
