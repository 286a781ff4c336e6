// Package printer writes the results of a grep search the way ripgrep
// prints them: `path:line:text` lines (with `-` for context lines and `--`
// between groups that do not touch), colours, headings of paths, -c and -l
// lines, -o and --vimgrep, and the --json objects; Order sorts files for
// --sort. It is the printer of `gopi grep`, kept apart from the searcher
// (search/grep) as ripgrep keeps its printer crate apart from its
// searcher: the engine hands it FileResults (or has its workers format the
// lines through the Render function it gives, Needs.Render), and it
// writes bytes.
package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"

	"github.com/gopi-agent/gopi/search/grep"
)

// Config is how results are laid out. It is fixed once the printer is
// made, so the search workers format their files' lines with it
// concurrently (Renderer) while the printer writes bytes.
type Config struct {
	Colors       Palette
	Mode         grep.Mode // what the search reports: lines, counts or file names
	JSON         bool      // one JSON object per match (per file with -c or -l)
	WithPath     bool      // print file names
	LineNumbers  bool
	Column       bool // --column
	ByteOffset   bool // -b: the byte offset of each line (of each match with -o or --vimgrep)
	OnlyMatching bool // -o
	Vimgrep      bool
	Null         bool // a NUL after each path instead of ':' or a newline
	// Crosses: a multiline search whose matches can hold a newline. As in
	// ripgrep, matches whose lines touch are then printed as one block
	// (see lineBlock), and --vimgrep gives each match one line, its first.
	Crosses bool
	// Context: context lines were asked for; groups of lines that do not
	// touch are separated by "--".
	Context bool
	// CountMatches: -c prints the number of matches rather than of
	// matching lines (FileResult.Count, not Lines).
	CountMatches bool
}

// Printer writes one search's results to out, file by file, in the order
// it is handed them. It is not safe for concurrent use (Renderer's
// function is).
type Printer struct {
	cfg      Config
	out      io.Writer
	jsonEnc  *json.Encoder // records as --json, made on first use
	lastFile string        // file of the last printed line, for context separators
	lastLine int
	spanBuf  []grep.Span // printMatch's spans of one line of a multiline match
	block    lineBlock   // printMatch's block of touching multiline matches in the current file
	lineBuf  []byte      // printMatch's formatted lines
}

// New returns a printer of cfg's layout writing to out.
func New(out io.Writer, cfg Config) *Printer {
	return &Printer{cfg: cfg, out: out}
}

// PathEnd is what ends a path printed alone (-l, --files): a newline, or a
// NUL with Null.
func (p *Printer) PathEnd() byte { return p.cfg.pathSep('\n') }

// ContentNeeds is what the printer needs of each file of a content-mode
// search: its lines formatted by the workers (Render, ignored by the
// engine with context lines), with the path each file is printed by given
// by shown; and, for whole lines without colour, only the first match of a
// line (for --column): the rest of the line is not searched.
func (p *Printer) ContentNeeds(shown func(path string) string) grep.Needs {
	f := &p.cfg
	return grep.Needs{
		Render:         p.Renderer(shown),
		FirstMatchOnly: f.Colors.Match == "" && !f.OnlyMatching && !f.Vimgrep && !f.JSON,
	}
}

// Renderer returns the grep.Needs.Render of a search: the lines File
// would print for the matches of a file, formatted in the worker, the
// file printed by the path shown returns for it.
func (p *Printer) Renderer(shown func(path string) string) func(*grep.Rendering, string, iter.Seq[*grep.MatchView]) {
	f := p.cfg // a copy: workers only read it
	return func(out *grep.Rendering, path string, matches iter.Seq[*grep.MatchView]) {
		path = shown(path)
		spill := func(dst []byte) ([]byte, bool) {
			out.Buf = dst
			ok := out.Spill()
			return out.Buf, ok
		}
		var spanBuf []grep.Span
		var blk lineBlock
		for m := range matches {
			var ok bool
			if f.JSON {
				out.Buf, ok = appendJSON(out.Buf, path, m, spill)
				ok = ok && out.Spill()
			} else {
				out.Buf, _, ok = appendMatch(out.Buf, &f, path, m.Line, m.Offset, m.Text, m.Spans, &spanBuf, &blk, spill)
			}
			if !ok {
				return
			}
		}
	}
}

// File prints the results of one file (or a part of them: see
// grep.Needs.Render), the file printed as path.
func (p *Printer) File(path string, fr *grep.FileResult) error {
	f := &p.cfg
	if fr.Rendered != nil {
		_, err := p.out.Write(fr.Rendered)
		return err
	}
	if fr.Binary && f.Mode == grep.ModeContent {
		if f.JSON {
			return p.writeJSON(map[string]any{"path": path, "binary": true, "nulOffset": fr.NULOffset})
		}
		if f.WithPath {
			io.WriteString(p.out, f.Colors.Path+path+f.Colors.Reset+": ")
		}
		fmt.Fprintf(p.out, "binary file matches (found \"\\0\" byte around offset %d)\n", fr.NULOffset)
		return nil
	}
	switch f.Mode {
	case grep.ModeCount:
		count := fr.Lines
		if f.CountMatches {
			count = fr.Count
		}
		if f.JSON {
			return p.writeJSON(map[string]any{"path": path, "count": count, "matches": fr.Count})
		}
		if f.WithPath {
			fmt.Fprintf(p.out, "%s%s%s%c%d\n", f.Colors.Path, path, f.Colors.Reset, f.pathSep(':'), count)
		} else {
			fmt.Fprintf(p.out, "%d\n", count)
		}
		return nil
	case grep.ModeFilesWithMatches:
		if f.JSON {
			return p.writeJSON(map[string]any{"path": path})
		}
		fmt.Fprintf(p.out, "%s%s%s%c", f.Colors.Path, path, f.Colors.Reset, f.pathSep('\n'))
		return nil
	}
	for i := range fr.Matches {
		m := &fr.Matches[i]
		if f.JSON {
			if err := p.writeJSON(toJSONMatch(path, m)); err != nil {
				return err
			}
			continue
		}
		p.printMatch(path, m)
	}
	return nil
}

// writeJSON prints v as one line of JSON, with <, > and & as they are
// (as ripgrep and gopi ast write them: code is full of them).
func (p *Printer) writeJSON(v any) error {
	if p.jsonEnc == nil {
		p.jsonEnc = json.NewEncoder(p.out)
		p.jsonEnc.SetEscapeHTML(false)
	}
	return p.jsonEnc.Encode(v)
}

// printMatch prints a match with its context in ripgrep's layout:
// `path:line:text` for matched lines, `path-line-text` for context, and `--`
// between groups that are not adjacent.
func (p *Printer) printMatch(path string, m *grep.Match) {
	first := m.Line
	if len(m.Before) > 0 {
		first = m.Before[0].Line
	}
	if p.cfg.Context && p.lastFile != "" && (p.lastFile != path || first > p.lastLine+1) {
		io.WriteString(p.out, "--\n") // uncolored, as ripgrep prints it
	}
	for _, c := range m.Before {
		p.printLine(path, c.Line, c.Offset, c.Text)
	}
	if p.lastFile != path {
		p.block = lineBlock{}
	}
	var lines int
	p.lineBuf, lines, _ = appendMatch(p.lineBuf[:0], &p.cfg, path, m.Line, m.Offset, m.Text, m.Spans, &p.spanBuf, &p.block, p.spillLines)
	p.out.Write(p.lineBuf)
	last := m.Line + lines - 1
	for _, c := range m.After {
		if c.Spans != nil {
			// A matching line after the last match -m allows: printed as
			// a match, as ripgrep does.
			p.lineBuf, _, _ = appendMatch(p.lineBuf[:0], &p.cfg, path, c.Line, c.Offset, c.Text, c.Spans, &p.spanBuf, nil, p.spillLines)
			p.out.Write(p.lineBuf)
		} else {
			p.printLine(path, c.Line, c.Offset, c.Text)
		}
		last = c.Line
	}
	p.lastFile, p.lastLine = path, last
}

// spillLines is printMatch's lineSpill: once the lines formatted for one
// match pass spillLineBytes they are written out.
func (p *Printer) spillLines(dst []byte) ([]byte, bool) {
	if len(dst) < spillLineBytes {
		return dst, true
	}
	_, err := p.out.Write(dst)
	return dst[:0], err == nil
}

// spillLineBytes is how much printMatch formats before writing it.
const spillLineBytes = 64 << 10

// printLine prints a context line (numbered line, starting at byte at).
func (p *Printer) printLine(path string, line int, at int64, text string) {
	p.lineBuf = appendLine(p.lineBuf[:0], &p.cfg, path, line, '-', 0, at, text, nil)
	p.out.Write(p.lineBuf)
}
