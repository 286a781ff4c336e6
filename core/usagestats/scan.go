// Package usagestats adds up what the sessions in the agent directory
// record: sessions, requests, tokens, cost, timings and tool calls, over
// all of them and by model and by project folder — what `gopi stats`
// prints. Files are read in parallel, one worker per CPU, and of each line
// only an assistant message's usage, model and tool names are looked at
// (session.ScanUsage), so 10,000 sessions take well under a second.
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
	Overall    Totals
	ByModel    map[ModelKey]*Totals
	ByFolder   map[string]*Totals // by the working directory of the session
	Tools      map[string]int64   // tool calls by tool name
}

func newReport() *Report {
	return &Report{ByModel: map[ModelKey]*Totals{}, ByFolder: map[string]*Totals{}, Tools: map[string]int64{}}
}

// Scan reads every session below opts.Dirs and adds them up. It stops with
// ctx's error when ctx ends; a file that cannot be read is counted in
// Unreadable, not an error.
func Scan(ctx context.Context, opts Options) (*Report, error) {
	var files []string
	for _, dir := range opts.Dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == dir && errors.Is(err, fs.ErrNotExist) {
					return filepath.SkipDir
				}
				return nil // an unreadable directory: what it holds is not counted
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				files = append(files, p)
			}
			return ctx.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(files)))
	parts := make([]*Report, workers)
	next := make(chan string)
	var wg sync.WaitGroup
	for w := range workers {
		parts[w] = newReport()
		wg.Add(1)
		go func(r *Report) {
			defer wg.Done()
			var buf []byte
			var u session.RequestUsage
			for p := range next {
				buf = r.addFile(p, buf, &u)
			}
		}(parts[w])
	}
	func() {
		defer close(next)
		for _, p := range files {
			select {
			case next <- p:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := newReport()
	out.Files = len(files)
	for _, r := range parts {
		out.merge(r)
	}
	return out, nil
}

// assistantMarker is in every line holding an assistant message (a JSON
// string, so it cannot be part of a longer string): lines are looked for
// by it, and the rest of the file is never split into lines.
var assistantMarker = []byte(`"assistant"`)

// addFile reads one session file through buf (returned, grown, for the
// next file) and counts its requests.
func (r *Report) addFile(path string, buf []byte, u *session.RequestUsage) []byte {
	data, buf, err := openFile(path, buf)
	if err != nil {
		r.Unreadable++
		return buf
	}
	line, rest, _ := bytes.Cut(data, []byte{'\n'})
	cwd, ok := session.HeaderCwd(line)
	if !ok {
		return buf
	}
	r.Sessions++
	var folder *Totals
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
		r.Overall.add(u)
		key := ModelKey{u.Provider, u.Model}
		m := r.ByModel[key]
		if m == nil {
			m = &Totals{}
			r.ByModel[key] = m
		}
		m.add(u)
		if folder == nil {
			if folder = r.ByFolder[cwd]; folder == nil {
				folder = &Totals{}
				r.ByFolder[cwd] = folder
			}
		}
		folder.add(u)
		for _, name := range u.Tools {
			r.Tools[name]++
		}
	}
	return buf
}

// merge adds another report's counts (not its Files) to r.
func (r *Report) merge(o *Report) {
	r.Sessions += o.Sessions
	r.Unreadable += o.Unreadable
	r.Overall.merge(&o.Overall)
	for k, t := range o.ByModel {
		if r.ByModel[k] == nil {
			r.ByModel[k] = &Totals{}
		}
		r.ByModel[k].merge(t)
	}
	for k, t := range o.ByFolder {
		if r.ByFolder[k] == nil {
			r.ByFolder[k] = &Totals{}
		}
		r.ByFolder[k].merge(t)
	}
	for k, n := range o.Tools {
		r.Tools[k] += n
	}
}
