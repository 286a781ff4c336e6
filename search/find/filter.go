package find

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/glob"
)

// filter is the per-entry filters fd has and glob.Find does not.
type filter struct {
	re         *regexp.Regexp // --regex
	fullPath   bool
	exts       []string // lower-case, without the dot
	excludes   []*glob.Pattern
	maxDepth   int
	sizes      []sizeBound
	since      time.Time // zero: no --changed-within
	executable bool      // -t x
	empty      bool      // -t e
}

// sizeBound is one --size condition on a file's byte size.
type sizeBound struct {
	op    byte // '+', '-' or '='
	bytes int64
}

var sizeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([+-]?)(\d+)([a-zA-Z]*)$`) })

// parseSize reads fd's --size syntax.
func parseSize(s string) (sizeBound, error) {
	m := sizeRE().FindStringSubmatch(s)
	if m == nil {
		return sizeBound{}, fmt.Errorf("--size %q: use [+-]N[unit], e.g. +10k, -1mi, 500b", s)
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return sizeBound{}, fmt.Errorf("--size %q: %v", s, err)
	}
	units := map[string]int64{"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"ki": 1 << 10, "kib": 1 << 10, "mi": 1 << 20, "mib": 1 << 20, "gi": 1 << 30, "gib": 1 << 30, "ti": 1 << 40, "tib": 1 << 40}
	u, ok := units[strings.ToLower(m[3])]
	if !ok {
		return sizeBound{}, fmt.Errorf("--size %q: unknown unit %q; use b, k, m, g, t, ki, mi, gi or ti", s, m[3])
	}
	op := byte('=')
	if m[1] != "" {
		op = m[1][0]
	}
	return sizeBound{op: op, bytes: n * u}, nil
}

func (b sizeBound) ok(size int64) bool {
	switch b.op {
	case '+':
		return size >= b.bytes
	case '-':
		return size <= b.bytes
	}
	return size == b.bytes
}

// parseChangedWithin reads a duration (Go syntax plus d and w) or a date
// and returns the oldest modification time accepted.
func parseChangedWithin(s string, now time.Time) (time.Time, error) {
	if n, unit := strings.TrimRight(s, "dw"), strings.TrimLeft(s, "0123456789"); unit == "d" || unit == "w" {
		if v, err := strconv.Atoi(n); err == nil {
			days := v
			if unit == "w" {
				days *= 7
			}
			return now.Add(-time.Duration(days) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--changed-within %q: use a duration (90m, 2h, 3d, 1w) or a date (2024-01-31 or 2024-01-31 10:00:00)", s)
}

// needsStat reports whether the filter needs each entry's lstat.
func (f *filter) needsStat() bool {
	return len(f.sizes) > 0 || !f.since.IsZero() || f.executable || f.empty
}

// keep applies the filters to one match under root.
func (f *filter) keep(root string, m glob.Match) bool {
	if f.maxDepth > 0 && strings.Count(m.Path, "/")+1 > f.maxDepth {
		return false
	}
	for _, ex := range f.excludes {
		for p := m.Path; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			if ex.Match(p) {
				return false
			}
		}
	}
	name := path.Base(m.Path)
	if len(f.exts) > 0 {
		if m.Type != fscache.TypeFile {
			return false
		}
		lower := strings.ToLower(name)
		found := false
		for _, e := range f.exts {
			if strings.HasSuffix(lower, "."+e) && len(lower) > len(e)+1 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if f.re != nil {
		subject := name
		if f.fullPath {
			subject = m.Path
		}
		if !f.re.MatchString(subject) {
			return false
		}
	}
	if !f.needsStat() {
		return true
	}
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(m.Path)))
	if err != nil {
		return false
	}
	if f.executable && (!info.Mode().IsRegular() || info.Mode()&0o111 == 0) {
		return false
	}
	if f.empty {
		switch {
		case info.Mode().IsRegular():
			if info.Size() != 0 {
				return false
			}
		case info.IsDir():
			ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(m.Path)))
			if err != nil || len(ents) > 0 {
				return false
			}
		default:
			return false
		}
	}
	for _, b := range f.sizes {
		if !info.Mode().IsRegular() || !b.ok(info.Size()) {
			return false
		}
	}
	if !f.since.IsZero() && info.ModTime().Before(f.since) {
		return false
	}
	return true
}
