package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The screen draws the program inline, below the conversation, and puts
// finished text into the terminal's scrollback. It replaces Bubble Tea's
// own inline drawing, whose "print above" lost and repeated lines once
// the text printed and the frame together were taller than the screen:
// it scrolled the screen by the text's height with the frame still on
// it (a stale frame in the scrollback), then moved up by text plus frame
// height, which stops at the top row, so the frame was drawn over the
// text's last lines.
//
// Here the terminal does all the scrolling, in order: to print, the
// cursor goes back to the frame's first row, the frame is erased, the text
// is written line after line (what no longer fits scrolls into the
// scrollback, the text itself and nothing else), and the frame is drawn
// again below it. A frame is never taller than the screen (its top is
// cut), so drawing it scrolls only rows above it, which are printed text.
// Between prints only the rows that changed are written, in one write
// wrapped in synchronised output (mode 2026), and nothing is written when
// the frame did not change.
//
// A change of size cannot be followed row by row (terminals reflow or cut
// their lines, each its own way), so it clears the screen and the
// scrollback and writes the printed text again, then the frame: every
// line once, none at the old size.

// Control sequences the screen writes. It never erases "to the end of
// the screen": tmux takes that, with the cursor on the top row, for a
// clear of the screen and moves the rows into the scrollback
// (scroll-on-clear); rows are erased one by one instead.
const (
	syncBegin = "\x1b[?2026h"
	syncEnd   = "\x1b[?2026l"
	eraseLine = "\x1b[2K"              // the whole row
	down      = "\x1b[B"               // a row down, never scrolling
	clearAll  = "\x1b[2J\x1b[3J\x1b[H" // the screen, then the scrollback (a terminal may have just scrolled the screen into it), cursor home
)

// transcriptKeep bounds the printed text kept to be written again after a
// resize; older lines are dropped from it (and from the scrollback, which
// a resize clears).
const transcriptKeep = 8 << 20

// screen is the terminal as the program draws on it.
type screen struct {
	out           func(string) // writes to the terminal (one call per update)
	width, height int
	sized         bool     // the size is known: nothing is drawn before
	reset         bool     // the size changed since the last draw: clear and write everything again
	shown         []string // the frame's rows as they are on the terminal, top first; the cursor is at the end of the last
	log           []string // printed lines, for a redraw after a resize
	logBytes      int
	frames        int    // writes made, for tests
	first         string // written before the first frame (terminal modes)
	title         string // the window title wanted (set by the program)
	titleShown    string // the window title last written
	buf           strings.Builder
}

// newScreen draws through out.
func newScreen(out func(string)) *screen { return &screen{out: out} }

// resize takes the terminal's new size; the next draw starts afresh
// when the program was drawn at another size.
func (s *screen) resize(width, height int) {
	if s.sized && (width != s.width || height != s.height) {
		s.reset = true
	}
	s.width, s.height, s.sized = max(1, width), max(1, height), true
}

// draw prints text (lines that go into the scrollback, none for "") above
// the frame and shows frame. It writes nothing when there is nothing to
// print and the frame is the one shown.
func (s *screen) draw(text string, frame string) {
	if !s.sized {
		return
	}
	rows := s.fit(frame)
	var printed []string
	if text != "" {
		printed = strings.Split(text, "\n")
		s.remember(printed)
	}
	b := &s.buf
	b.Reset()
	switch {
	case s.reset:
		b.WriteString(clearAll)
		for _, l := range s.log {
			b.WriteString(l)
			b.WriteString("\x1b[m\r\n")
		}
		s.shown, s.reset = nil, false
		s.writeRows(rows, 0)
	case printed != nil:
		s.eraseFrame()
		for _, l := range printed {
			b.WriteString(l)
			b.WriteString("\x1b[m\r\n")
		}
		s.shown = nil
		s.writeRows(rows, 0)
	default:
		first := 0
		for first < len(rows) && first < len(s.shown) && rows[first] == s.shown[first] {
			first++
		}
		if first == len(rows) && len(rows) == len(s.shown) {
			if s.title != s.titleShown { // only the title changed
				s.titleShown = s.title
				s.out(titleSeq(s.title))
			}
			return // nothing changed
		}
		if first == len(rows) {
			first-- // only shorter: the last row is written again, the rest erased
		}
		s.update(rows, first)
	}
	s.shown = rows
	modes := ""
	if s.frames == 0 {
		modes = s.first
	}
	if s.title != s.titleShown {
		modes += titleSeq(s.title)
		s.titleShown = s.title
	}
	s.frames++
	s.out(modes + syncBegin + b.String() + syncEnd)
}

// titleSeq is the sequence that sets the window title (OSC 2; the title
// is clean text, see model.title).
func titleSeq(title string) string { return "\x1b]2;" + title + "\x07" }

// update rewrites the frame from row first down.
func (s *screen) update(rows []string, first int) {
	b := &s.buf
	switch {
	case len(s.shown) == 0:
		b.WriteString("\r")
	case first >= len(s.shown):
		// New rows below the last one: a new line from its end.
		b.WriteString("\r\n")
	default:
		if up := len(s.shown) - 1 - first; up > 0 {
			b.WriteString(ansi.CursorUp(up))
		}
		b.WriteString("\r")
	}
	s.writeRows(rows, first)
}

// writeRows writes rows[first:] from the start of the cursor's row, each
// over a cleared row, and erases the rows of an older, taller frame left
// below them; the cursor ends on the last row.
func (s *screen) writeRows(rows []string, first int) {
	b := &s.buf
	for i := first; i < len(rows); i++ {
		if i > first {
			b.WriteString("\r\n")
		}
		b.WriteString(eraseLine)
		b.WriteString(rows[i])
		b.WriteString("\x1b[m")
	}
	if extra := len(s.shown) - len(rows); extra > 0 {
		for range extra {
			b.WriteString(down + eraseLine)
		}
		b.WriteString(ansi.CursorUp(extra))
	}
}

// eraseFrame erases the frame's rows and leaves the cursor at the start
// of its first.
func (s *screen) eraseFrame() {
	b := &s.buf
	if n := len(s.shown) - 1; n > 0 {
		b.WriteString(ansi.CursorUp(n))
	}
	b.WriteString("\r")
	for i := range s.shown {
		if i > 0 {
			b.WriteString(down)
		}
		b.WriteString(eraseLine)
	}
	if n := len(s.shown) - 1; n > 0 {
		b.WriteString(ansi.CursorUp(n))
	}
}

// fit cuts the frame to the screen: each row to the width, and the frame
// to the height (its last rows are kept: the editor and the footer).
func (s *screen) fit(frame string) []string {
	rows := strings.Split(frame, "\n")
	if len(rows) > s.height {
		rows = rows[len(rows)-s.height:]
	}
	// Rows are measured per code point (wcwidth), as tmux and most
	// terminals count: a joined emoji such as 👩‍👩‍👧 is one cluster of
	// width 2 but takes 6 columns there. A row the terminal wrapped would
	// take one more row than the screen counts, and the next print would
	// leave a row of the old frame in the scrollback.
	for i, r := range rows {
		rows[i] = fitWc(expandTabs(r), s.width)
	}
	return rows
}

// tabStop is the terminal's distance between tab stops (tmux and xterm
// set one every 8 columns unless told otherwise).
const tabStop = 8

// expandTabs writes a row's tabs as the spaces the terminal would move
// over. A tab measures no columns, but the terminal moves to its next tab
// stop: a row such as "Tabs:\tcol1\tcol2\tcol3" counted 17 columns and
// took 28, so at 20 and 24 columns the terminal wrapped it, the frame
// took one row more than the screen counted, and the next print left a
// blank row of the old frame in the scrollback. Rows start at the first
// column, so the stops are known; escape sequences hold no tabs.
func expandTabs(row string) string {
	if !strings.Contains(row, "\t") {
		return row
	}
	var b strings.Builder
	col := 0
	for i, seg := range strings.Split(row, "\t") {
		if i > 0 {
			n := tabStop - col%tabStop
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
		b.WriteString(seg)
		col += ansi.StringWidthWc(seg)
	}
	return b.String()
}

// fitWc cuts row to width columns counted per code point. TruncateWc
// measures a joined emoji as one cluster, so a cut can still be too wide:
// it is cut shorter by the excess until it fits.
func fitWc(row string, width int) string {
	if ansi.StringWidthWc(row) <= width {
		return row
	}
	cut := ansi.TruncateWc(row, width, "")
	for n := width; n > 0; {
		over := ansi.StringWidthWc(cut) - width
		if over <= 0 {
			break
		}
		n = max(0, n-over)
		cut = ansi.TruncateWc(row, n, "")
	}
	return cut
}

// remember keeps printed lines for a redraw after a resize.
func (s *screen) remember(lines []string) {
	for _, l := range lines {
		s.log = append(s.log, l)
		s.logBytes += len(l) + 1
	}
	drop := 0
	for s.logBytes > transcriptKeep && drop < len(s.log) {
		s.logBytes -= len(s.log[drop]) + 1
		drop++
	}
	if drop > 0 {
		s.log = append(s.log[:0:0], s.log[drop:]...)
	}
}

// forget drops the printed text kept for a redraw: the text printed next
// replaces it (with reset set, the next draw clears the terminal first).
func (s *screen) forget() {
	s.log, s.logBytes = nil, 0
}

// close leaves the terminal below the printed text: text (the unfinished
// answer, when the program ends in the middle of one) is printed and the
// frame erased.
func (s *screen) close(text string) {
	if !s.sized {
		return
	}
	if s.reset || text != "" {
		s.draw(text, "")
	}
	s.buf.Reset()
	s.eraseFrame()
	s.shown = nil
	s.frames++
	s.out(s.buf.String())
}
