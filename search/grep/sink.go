package grep

import "iter"

// Sink receives the results of a streamed search (StreamTo,
// StreamReaderTo), file by file in path order, and says what it needs of
// them: the engine does no more work per file than that.
type Sink interface {
	// Needs is asked once, before the search starts.
	Needs() Needs
	// File receives a file with matches (or a part of one: see
	// Needs.Render, and the blocks of a large file). A non-nil error
	// stops the search, which returns it.
	File(*FileResult) error
}

// Needs is what a sink needs of each file's results. The zero value asks
// for whole match records (FileResult.Matches) and exact totals.
type Needs struct {
	// CountLinesOnly: in count mode FileResult.Count (the number of
	// matches) is not needed and left 0, so a matching line is searched only
	// up to its first match (what `-c` prints is the line count).
	CountLinesOnly bool
	// FirstMatchEnough: in files-with-matches mode a file is reported as
	// soon as a line of it matches and read no further (`gopi grep -l` on
	// a FIFO answers at once, not when its writer closes it);
	// FileResult.Lines and Count then say 1, not the file's totals.
	FirstMatchEnough bool
	// FirstMatchOnly: in content mode only the first match of each line
	// is needed (a printer of whole lines, which needs at most a column):
	// a line's search stops there, so Match.Spans holds one span and
	// FileResult.Count counts matching lines. Multiline searches ignore it.
	FirstMatchOnly bool
	// Render, when set, formats content-mode results in the workers:
	// instead of Matches, each FileResult carries Rendered, what Render
	// wrote to out.Buf for the file (path as in Match.Path) and its
	// matches in order. A printer then writes bytes, and no match record
	// is built (which costs more than the search when most lines match).
	// Render calls out.Spill after each line it writes: a file with a
	// large output then arrives as several FileResults, the earlier ones
	// holding only Rendered, the last one the counts too. Ignored with
	// context lines, which need the matches of neighbouring files to be
	// laid out. Called from several goroutines at once.
	Render func(out *Rendering, path string, matches iter.Seq[*MatchView])
	// ReuseRendered: the sink is done with FileResult.Rendered when File
	// returns (it writes the bytes out and keeps nothing), so the engine
	// hands the buffer to a worker again. A search that prints gigabytes
	// then allocates a few buffers instead of a new one per file and per
	// 256 KiB spilled, and its heap stays near what it holds.
	ReuseRendered bool
}

// Records is a Sink that needs whole match records: the function gets
// each file.
type Records func(*FileResult) error

// Needs asks for whole records.
func (Records) Needs() Needs { return Needs{} }

// File calls f.
func (f Records) File(fr *FileResult) error { return f(fr) }

// pagingSink is a Sink that knows when it has enough materialised results:
// told how many matches (content mode) or files were delivered so far,
// it answers true once the remaining files need only be counted. Search's
// pager is one.
type pagingSink interface {
	Sink
	enough(delivered int) bool
}
