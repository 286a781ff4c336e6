// Package usagestats adds up what the sessions in the agent directory
// record: sessions, requests, tokens, cost, timings and tool calls, over
// all of them and by model and by project folder — what `gopi stats`
// prints. Files are read in parallel, one worker per CPU, and of each line
// only an assistant message's usage, model and tool names are looked at
// (session.ScanUsage); each file's sums can be kept in a cache
// (Options.Cache) so that a later scan reads only new and changed files.
package usagestats

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/session"
)

// Options says where the sessions are.
type Options struct {
	// Dirs are session roots (sessions/ of an agent directory): every
	// *.jsonl file below them is a session. A missing root is skipped.
	Dirs []string
	// Workers bounds the files read at once (0: one per CPU).
	Workers int
	// Cache is a file keeping each session's sums between runs, so that
	// only new and changed files are read ("": read every file). It is
	// written atomically when the sums changed; an unreadable or outdated
	// cache is ignored.
	Cache string
}

// maxUnreadableNamed is how many unreadable files a Report names.
const maxUnreadableNamed = 3

// UnreadableFile is a session file that could not be read, and why.
type UnreadableFile struct {
	Path   string
	Reason string // e.g. "a symbolic link to a missing file", "permission denied"
}

// ModelKey names a model as the requests record it.
type ModelKey struct {
	Provider, Model string
}

// Report is the sum of the sessions scanned.
type Report struct {
	Files      int // *.jsonl files found
	Sessions   int // of them, files that start with a session header
	Unreadable int // files that could not be read
	// UnreadableFiles name the first few of them (up to
	// maxUnreadableNamed), each with the reason.
	UnreadableFiles []UnreadableFile
	Cached          int // files whose sums came from the cache
	Overall         Totals
	ByModel         map[ModelKey]*Totals
	ByFolder        map[string]*Totals // by the working directory of the session
	Tools           map[string]int64   // tool calls by tool name
}

func newReport() *Report {
	return &Report{ByModel: map[ModelKey]*Totals{}, ByFolder: map[string]*Totals{}, Tools: map[string]int64{}}
}

// found is a session file as the walk found it.
type found struct {
	path        string
	size, mtime int64
}

// Scan reads every session below opts.Dirs (those opts.Cache knows
// unchanged excepted) and adds them up. It stops with ctx's error when ctx
// ends; a file that cannot be read is counted in Unreadable, not an
// error; a cache that cannot be written is.
func Scan(ctx context.Context, opts Options) (*Report, error) {
	var files []found
	for _, dir := range opts.Dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == dir && errors.Is(err, fs.ErrNotExist) {
					return filepath.SkipDir
				}
				return nil // an unreadable directory: what it holds is not counted
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				f := found{path: p, size: -1}
				if fi, err := d.Info(); err == nil {
					f.size, f.mtime = fi.Size(), fi.ModTime().UnixNano()
				}
				files = append(files, f)
			}
			return ctx.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	var cached map[string]fileStats
	if opts.Cache != "" {
		cached = loadCache(opts.Cache)
	}
	results := make([]fileStats, len(files))
	var todo []int
	for i, f := range files {
		if c, ok := cached[f.path]; ok && f.size >= 0 && c.Size == f.size && c.MTime == f.mtime {
			results[i] = c
			continue
		}
		todo = append(todo, i)
	}
	if err := scanFiles(ctx, files, todo, results, opts.Workers); err != nil {
		return nil, err
	}
	r := newReport()
	r.Files, r.Cached = len(files), len(files)-len(todo)
	for i := range results {
		if results[i].Unreadable && len(r.UnreadableFiles) < maxUnreadableNamed {
			r.UnreadableFiles = append(r.UnreadableFiles, UnreadableFile{Path: files[i].path, Reason: results[i].Why})
		}
		r.add(&results[i])
	}
	if opts.Cache != "" && (len(todo) > 0 || len(cached) != len(files)) {
		if err := saveCache(opts.Cache, files, results); err != nil {
			return r, err
		}
	}
	return r, nil
}

// scanFiles reads the files todo names, in parallel, into results.
func scanFiles(ctx context.Context, files []found, todo []int, results []fileStats, workers int) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(todo)))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			var u session.RequestUsage
			for i := range next {
				results[i], buf = scanFile(files[i].path, buf, &u)
				results[i].Size, results[i].MTime = files[i].size, files[i].mtime
			}
		}()
	}
	func() {
		defer close(next)
		for _, i := range todo {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	return ctx.Err()
}

// assistantMarker is in every line holding an assistant message (a JSON
// string, so it cannot be part of a longer string): lines are looked for
// by it, and the rest of the file is never split into lines.
var assistantMarker = []byte(`"assistant"`)

// scanFile reads one session file through buf (returned, grown, for the
// next file) and sums its requests.
func scanFile(path string, buf []byte, u *session.RequestUsage) (fileStats, []byte) {
	var st fileStats
	data, buf, err := openFile(path, buf)
	if err != nil {
		st.Unreadable, st.Why = true, unreadableReason(path, err)
		return st, buf
	}
	line, rest, _ := bytes.Cut(data, []byte{'\n'})
	cwd, ok := session.HeaderCwd(line)
	if !ok {
		return st, buf
	}
	st.Session, st.Folder = true, cwd
	for {
		at := bytes.Index(rest, assistantMarker)
		if at < 0 {
			break
		}
		start := bytes.LastIndexByte(rest[:at], '\n') + 1
		end := bytes.IndexByte(rest[at:], '\n')
		if end < 0 {
			end = len(rest)
		} else {
			end += at
		}
		line, rest = rest[start:end], rest[end:]
		if !session.ScanUsage(line, u) {
			continue
		}
		st.model(ModelKey{u.Provider, u.Model}).add(u)
		for _, name := range u.Tools {
			if st.Tools == nil {
				st.Tools = map[string]int64{}
			}
			st.Tools[name]++
		}
	}
	return st, buf
}

// add counts one file's sums.
func (r *Report) add(f *fileStats) {
	if f.Unreadable {
		r.Unreadable++
		return
	}
	if !f.Session {
		return
	}
	r.Sessions++
	for i := range f.Models {
		m := &f.Models[i]
		r.Overall.merge(&m.Totals)
		if r.ByModel[m.Key] == nil {
			r.ByModel[m.Key] = &Totals{}
		}
		r.ByModel[m.Key].merge(&m.Totals)
		if r.ByFolder[f.Folder] == nil {
			r.ByFolder[f.Folder] = &Totals{}
		}
		r.ByFolder[f.Folder].merge(&m.Totals)
	}
	for k, n := range f.Tools {
		r.Tools[k] += n
	}
}
