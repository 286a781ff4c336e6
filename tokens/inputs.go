package tokens

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gopi-agent/gopi/internal/regularfile"
)

// InputOptions says how CountInputs reads and counts its inputs.
type InputOptions struct {
	Encoding *Encoding     // what to count with (required)
	Rule     ModelEncoding // how counts scale for the model; the zero value keeps them
	Model    string        // the model the counts are for, reported; "" for none
	// Estimate samples regular files over 4 MiB instead of counting every
	// token (Encoding.EstimateAt reads only the windows it samples);
	// standard input and special files are still counted exactly, streamed.
	Estimate bool
	Stdin    io.Reader // what "-" reads
	// Warn receives, in input order, why an input was not counted and
	// notes about one counted only in part, in words that start with the
	// input's name; nil drops them.
	Warn func(msg string)
	// SpecialCap is how much of a named input that is not a regular file
	// (a device, a FIFO, a pseudo-file that reports no size) is read;
	// 0 means DefaultSpecialCap.
	SpecialCap int64
	// Workers is how many goroutines count at once; 0 means GOMAXPROCS.
	Workers int
}

// DefaultSpecialCap is how much of a special file is counted by default:
// /dev/zero never ends.
const DefaultSpecialCap = 64 << 20

// CountInputs counts the tokens of each path ("-" is Stdin; no path at
// all means Stdin) into a report. An input that cannot be read is left
// out of it and told to Warn; all is false then. The error is the
// context's, when it ends the count.
//
// Inputs are counted at the same time, and a large one in segments (see
// CountParallel), on up to Workers goroutines; the report and the
// warnings keep the order of paths.
func CountInputs(ctx context.Context, paths []string, o InputOptions) (r Report, all bool, err error) {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	r = Report{Encoding: o.Encoding.Name(), Model: o.Model, Files: []FileCount{}}
	if !o.Rule.Exact && o.Rule.Ratio != 0 {
		r.Ratio = o.Rule.Ratio
	}
	n := o.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	results := o.countAll(ctx, paths, NewWorkers(n), n)
	if err := ctx.Err(); err != nil {
		return r, false, err
	}
	all = true
	for _, res := range results {
		for _, msg := range res.notes {
			warn(msg)
		}
		if res.err != nil {
			warn(res.err.Error())
			all = false
			continue
		}
		n := o.Rule.Scale(res.tokens)
		r.Files = append(r.Files, FileCount{Path: res.path, Bytes: res.size, Tokens: n})
		r.Bytes += res.size
		r.Tokens += n
	}
	return r, all, nil
}

// inputCount is the count of one input, or why there is none, with the
// notes to warn before it.
type inputCount struct {
	path         string
	tokens, size int
	notes        []string
	err          error
}

// countAll counts paths on up to files goroutines at once, segments
// sharing w; standard input, which may be named more than once, is read
// by one of them at a time, in order. The goroutines take the paths in
// order and each counts one after another: a goroutine per path would
// grow a fresh stack for every file (a tenth of the instructions of
// counting a tree of small files).
func (o *InputOptions) countAll(ctx context.Context, paths []string, w *Workers, files int) []inputCount {
	results := make([]inputCount, len(paths))
	// turns[i], for the i-th path when it is "-", is closed when that
	// standard input is done; wait[i] is the previous "-"'s.
	turns := make([]chan struct{}, len(paths))
	wait := make([]chan struct{}, len(paths))
	var prev chan struct{}
	for i, path := range paths {
		if path == "-" {
			turns[i], wait[i] = make(chan struct{}), prev
			prev = turns[i]
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(files, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				// After a cancel the rest are skipped, but every turn
				// taken still ends, so no later "-" waits for ever.
				if ctx.Err() == nil {
					if wait[i] != nil {
						<-wait[i]
					}
					results[i] = o.countOne(ctx, paths[i], w)
				}
				if turns[i] != nil {
					close(turns[i])
				}
			}
		}()
	}
	wg.Wait()
	return results
}

// countOne counts one input.
func (o *InputOptions) countOne(ctx context.Context, path string, w *Workers) inputCount {
	res := inputCount{path: path}
	if err := ctx.Err(); err != nil {
		res.err = err
		return res
	}
	if o.Estimate && path != "-" {
		// A regular file only (a pipe is not opened here: a second open
		// by the exact count below would lose what a writer had sent).
		if f, info, err := regularfile.Open(path); err == nil {
			defer f.Close()
			res.tokens, res.err = o.Encoding.EstimateAt(f, info.Size())
			if res.err != nil {
				res.err = fmt.Errorf("%s: %w", path, res.err)
			}
			res.size = int(info.Size())
			return res
		}
	}
	n, sz, err := o.countInput(ctx, path, w, func(msg string) { res.notes = append(res.notes, msg) })
	res.tokens, res.size, res.err = n, int(sz), err
	return res
}

// countInput counts the tokens of a file, or of standard input for "-",
// streaming it (memory stays bounded whatever its size). A named special
// file is read up to the special-file cap, with a note to warn.
func (o *InputOptions) countInput(ctx context.Context, path string, w *Workers, warn func(string)) (int, int64, error) {
	enc := o.Encoding
	if path == "-" {
		n, size, err := enc.CountParallel(ctx, o.Stdin, w)
		if err != nil {
			return 0, size, fmt.Errorf("read standard input: %w", err)
		}
		return n, size, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	limit := o.SpecialCap
	if limit <= 0 {
		limit = DefaultSpecialCap
	}
	var r io.Reader = f
	// A device, a FIFO, or a "regular" pseudo-file that reports no size
	// (/proc/self/pagemap never ends) is counted up to the cap.
	capped := !info.Mode().IsRegular() || info.Size() == 0
	switch {
	case info.IsDir():
		return 0, 0, fmt.Errorf("%s: is a directory; give files (e.g. with gopi find)", path)
	case capped:
		r = io.LimitReader(f, limit)
	}
	n, size, err := enc.CountParallel(ctx, r, w)
	if err != nil {
		return 0, size, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if capped && size == limit {
		warn(fmt.Sprintf("%s is not a regular file (or reports no size): counted its first %d MiB only", path, limit>>20))
	}
	return n, size, nil
}

// unwrapPathError drops the "open PATH:" prefix the message already has.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
