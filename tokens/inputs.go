package tokens

import (
	"context"
	"fmt"
	"io"
	"os"
)

// InputOptions says how CountInputs reads and counts its inputs.
type InputOptions struct {
	Encoding *Encoding     // what to count with (required)
	Rule     ModelEncoding // how counts scale for the model; the zero value keeps them
	Model    string        // the model the counts are for, reported; "" for none
	// Estimate samples files over 4 MiB instead of counting every token
	// (Encoding.Estimate); files over maxEstimateRead and standard input
	// are still counted exactly, streamed.
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
}

// DefaultSpecialCap is how much of a special file is counted by default:
// /dev/zero never ends.
const DefaultSpecialCap = 64 << 20

// maxEstimateRead is the largest file Estimate reads into memory to
// sample; larger files (and stdin, of unknown size) are counted exactly by
// streaming instead, which keeps memory bounded.
const maxEstimateRead = 256 << 20

// CountInputs counts the tokens of each path ("-" is Stdin; no path at
// all means Stdin) into a report. An input that cannot be read is left
// out of it and told to Warn; all is false then. The error is the
// context's, when it ends the count.
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
	all = true
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return r, false, err
		}
		var raw, size int
		if o.Estimate && estimateReadsWhole(path) {
			text, err := readInput(o.Stdin, path)
			if err != nil {
				warn(err.Error())
				all = false
				continue
			}
			raw, size = o.Encoding.Estimate(text), len(text)
		} else {
			n, sz, err := o.countInput(ctx, path, warn)
			if err != nil {
				warn(err.Error())
				all = false
				continue
			}
			raw, size = n, int(sz)
		}
		n := o.Rule.Scale(raw)
		r.Files = append(r.Files, FileCount{Path: path, Bytes: size, Tokens: n})
		r.Bytes += size
		r.Tokens += n
	}
	return r, all, nil
}

// estimateReadsWhole reports whether Estimate may read path whole.
func estimateReadsWhole(path string) bool {
	if path == "-" {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Size() <= maxEstimateRead
}

// countInput counts the tokens of a file, or of standard input for "-",
// streaming it (memory stays bounded whatever its size). A named special
// file is read up to the special-file cap, with a note to warn.
func (o *InputOptions) countInput(ctx context.Context, path string, warn func(string)) (int, int64, error) {
	enc := o.Encoding
	if path == "-" {
		n, size, err := enc.CountReader(ctx, o.Stdin)
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
	n, size, err := enc.CountReader(ctx, r)
	if err != nil {
		return 0, size, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if capped && size == limit {
		warn(fmt.Sprintf("%s is not a regular file (or reports no size): counted its first %d MiB only", path, limit>>20))
	}
	return n, size, nil
}

// readInput reads a file, or standard input for "-".
func readInput(stdin io.Reader, path string) (string, error) {
	if path == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("read standard input: %w", err)
		}
		return string(b), nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if info.IsDir() {
		return "", fmt.Errorf("%s: is a directory; give files (e.g. with gopi find)", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	return string(b), nil
}

// unwrapPathError drops the "open PATH:" prefix the message already has.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
