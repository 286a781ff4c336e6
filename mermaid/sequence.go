package mermaid

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Participant is a column of a sequence diagram.
type Participant struct {
	ID, Label string
}

// SeqEvent is one row group of a sequence diagram: a message, a note, or
// the start, middle or end of a block.
type SeqEvent struct {
	Kind     string // "message", "note", "block", "else", "end"
	From, To int    // participants (a note's span; a self-message has From == To)
	Text     string
	Dotted   bool   // --> and -->>
	Head     Head   // HeadArrow (>>), HeadNone (->), HeadCross (-x), HeadCircle (-), async)
	Side     string // a note's place: "left", "right", "over"
	Block    string // a block's keyword: loop, alt, else, opt, par, and, critical, option, break, rect
}

// Sequence is a parsed sequence diagram.
type Sequence struct {
	Participants []Participant
	Events       []SeqEvent
	byID         map[string]int
}

var (
	seqParticipantRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(participant|actor)\s+(.+?)(?:\s+as\s+(.+))?$`)
	})
	seqMessageRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?)\s*(-->>|->>|-->|->|--x|-x|--\)|-\))\s*[+-]?\s*([^:]+?)\s*(?::(.*))?$`)
	})
	seqNoteRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^note\s+(left of|right of|over)\s+([^:]+?)\s*:(.*)$`)
	})
	seqBlockRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(loop|alt|opt|par|critical|break|rect|else|and|option)\b\s*(.*)$`)
	})
	seqSkipRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(activate|deactivate|autonumber|title|accTitle|accDescr|box|create|destroy|links?|properties|details)\b`)
	})
)

// ParseSequence reads a sequence diagram: participants (declared or
// first named by a message), messages, notes and blocks; activations and
// styling are skipped, autonumber numbers the messages.
func ParseSequence(src string) (*Sequence, error) {
	sd := &Sequence{byID: map[string]int{}}
	lines := strings.Split(src, "\n")
	seenHeader, number, depth := false, 0, 0
	for i, raw := range lines {
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || strings.HasPrefix(line, "%%") {
			continue
		}
		if !seenHeader {
			if line != "sequenceDiagram" {
				return nil, &SyntaxError{Line: i + 1, Text: line, Msg: "expected the header \"sequenceDiagram\""}
			}
			seenHeader = true
			continue
		}
		fail := func(msg string) error { return &SyntaxError{Line: i + 1, Text: line, Msg: msg} }
		switch {
		case line == "autonumber":
			number = 1
		case seqSkipRe().MatchString(line):
		case line == "end":
			if depth == 0 {
				return nil, fail("\"end\" closes no block")
			}
			depth--
			sd.Events = append(sd.Events, SeqEvent{Kind: "end"})
		case seqParticipantRe().MatchString(line):
			m := seqParticipantRe().FindStringSubmatch(line)
			i := sd.participant(m[2])
			if m[3] != "" {
				sd.Participants[i].Label = cleanText(m[3])
			}
		case seqNoteRe().MatchString(line):
			m := seqNoteRe().FindStringSubmatch(line)
			names := strings.Split(m[2], ",")
			a := sd.participant(names[0])
			b := a
			if len(names) > 1 {
				b = sd.participant(names[1])
			}
			side := strings.Fields(strings.ToLower(m[1]))[0]
			sd.Events = append(sd.Events, SeqEvent{Kind: "note", From: min(a, b), To: max(a, b), Text: cleanText(m[3]), Side: side})
		case seqBlockRe().MatchString(line):
			m := seqBlockRe().FindStringSubmatch(line)
			kind := "block"
			switch m[1] {
			case "else", "and", "option":
				if depth == 0 {
					return nil, fail("\"" + m[1] + "\" outside a block")
				}
				kind = "else"
			default:
				depth++
			}
			sd.Events = append(sd.Events, SeqEvent{Kind: kind, Block: m[1], Text: cleanText(m[2])})
		case seqMessageRe().MatchString(line):
			m := seqMessageRe().FindStringSubmatch(line)
			e := SeqEvent{Kind: "message", From: sd.participant(m[1]), To: sd.participant(m[3]), Text: cleanText(m[4])}
			e.Dotted = strings.HasPrefix(m[2], "--")
			switch strings.TrimLeft(m[2], "-") {
			case ">>":
				e.Head = HeadArrow
			case "x":
				e.Head = HeadCross
			case ")":
				e.Head = HeadCircle
			}
			if number > 0 {
				e.Text = strings.TrimSpace(fmt.Sprintf("%d. %s", number, e.Text))
				number++
			}
			sd.Events = append(sd.Events, e)
		default:
			return nil, fail("cannot read this statement; expected a message such as \"A->>B: text\", a note, a participant or a block")
		}
		if len(sd.Participants) > MaxNodes || len(sd.Events) > MaxNodes*10 {
			return nil, fmt.Errorf("the diagram has more than %d participants or %d messages; split it into smaller diagrams", MaxNodes, MaxNodes*10)
		}
	}
	if !seenHeader {
		return nil, fmt.Errorf("the Mermaid source is empty")
	}
	for ; depth > 0; depth-- {
		sd.Events = append(sd.Events, SeqEvent{Kind: "end"})
	}
	return sd, nil
}

// participant returns the index of the participant named id, adding it.
func (sd *Sequence) participant(id string) int {
	id = cleanText(id)
	if i, ok := sd.byID[id]; ok {
		return i
	}
	sd.byID[id] = len(sd.Participants)
	sd.Participants = append(sd.Participants, Participant{ID: id, Label: id})
	return len(sd.Participants) - 1
}

// renderSequence draws a sequence diagram: participant boxes at the top
// and bottom, lifelines between, one group of rows per event.
func renderSequence(sd *Sequence, o Options) (string, error) {
	if len(sd.Participants) == 0 {
		return "", fmt.Errorf("the sequence diagram has no participants")
	}
	cols := seqColumns(sd, o)
	boxH := 3 + 2*o.BoxBorderPadding
	height := 2*boxH + 1
	for _, e := range sd.Events {
		height += seqRows(e)
	}
	if cols.width*height > MaxCells {
		return "", fmt.Errorf("the diagram would be %d×%d characters; split it into smaller diagrams", cols.width, height)
	}
	c := newCanvas(cols.width, height, o.UseASCII)
	bottom := height - boxH
	for i, p := range sd.Participants {
		x := cols.centers[i] - cols.widths[i]/2
		c.vline(cols.centers[i], boxH-1, bottom)
		drawLabelBox(c, x, 0, cols.widths[i], boxH, p.Label)
		drawLabelBox(c, x, bottom, cols.widths[i], boxH, p.Label)
	}
	drawSeqEvents(c, sd, cols, boxH+1)
	return c.String(), nil
}

// seqCols are the columns of a sequence diagram.
type seqCols struct {
	widths, centers []int // each participant's box width and lifeline column
	width           int   // of the whole drawing
	frameL, frameR  int   // columns of the outermost block frame
	maxDepth        int   // deepest nesting of blocks
}

// seqColumns places the lifelines: far enough apart for the boxes, then
// for the messages and notes between neighbours, with room at the sides
// for the block frames, the notes left of the first and the self-messages
// and notes right of the last participant.
func seqColumns(sd *Sequence, o Options) seqCols {
	n := len(sd.Participants)
	cols := seqCols{widths: make([]int, n), centers: make([]int, n)}
	for i, p := range sd.Participants {
		cols.widths[i] = textWidth(p.Label) + 2 + 2*o.BoxBorderPadding
	}
	gaps, rightExtra, maxDepth := seqGaps(sd, cols.widths, o)
	margin := 2 + maxDepth
	cols.centers[0] = margin + cols.widths[0]/2
	for i := 1; i < n; i++ {
		cols.centers[i] = cols.centers[i-1] + gaps[i-1]
	}
	leftNoteExtra := 0
	for _, e := range sd.Events {
		if e.Kind == "note" && e.Side == "left" && e.From == 0 {
			leftNoteExtra = max(leftNoteExtra, textWidth(e.Text)+6-cols.centers[0])
		}
	}
	for i := range cols.centers {
		cols.centers[i] += max(leftNoteExtra, 0)
	}
	cols.width = cols.centers[n-1] + (cols.widths[n-1]+1)/2 + margin + rightExtra
	cols.frameL, cols.frameR = margin-1, cols.width-margin+rightExtra
	cols.maxDepth = maxDepth
	return cols
}

// seqGaps returns the distances between neighbouring lifelines, the room
// needed right of the last one and the deepest block nesting.
func seqGaps(sd *Sequence, widths []int, o Options) (gaps []int, rightExtra, maxDepth int) {
	n := len(widths)
	gaps = make([]int, max(n-1, 0))
	for i := range gaps {
		gaps[i] = (widths[i]+1)/2 + widths[i+1]/2 + max(o.PaddingX-2, 1)
	}
	need := func(a, b, w int) { // lifelines a < b need w columns between them
		if a < 0 || a >= b || b > len(gaps) {
			return
		}
		have := 0
		for i := a; i < b; i++ {
			have += gaps[i]
		}
		if have < w {
			gaps[b-1] += w - have
		}
	}
	right := func(i, w int) { // w columns right of lifeline i
		need(i, i+1, w)
		if i == n-1 {
			rightExtra = max(rightExtra, w)
		}
	}
	depth := 0
	for _, e := range sd.Events {
		w := textWidth(e.Text)
		switch {
		case e.Kind == "message" && e.From == e.To, e.Kind == "note" && e.Side == "right":
			right(e.From, w+6)
		case e.Kind == "message":
			need(min(e.From, e.To), max(e.From, e.To), w+4)
		case e.Kind == "note" && e.Side == "left":
			need(e.From-1, e.From, w+6)
		case e.Kind == "note":
			need(e.From, e.To, w+4)
		case e.Kind == "block":
			depth++
			maxDepth = max(maxDepth, depth)
		case e.Kind == "end":
			depth--
		}
	}
	return gaps, rightExtra, maxDepth
}

// drawSeqEvents draws the events from row y down: messages, notes, and
// the frames of the blocks (drawn when they end, nested ones inside).
func drawSeqEvents(c *canvas, sd *Sequence, cols seqCols, y int) {
	var open []int // rows where the open blocks start
	bounds := func(d int) (l, r int) {
		return cols.frameL - cols.maxDepth + 1 + d, cols.frameR + cols.maxDepth - 1 - d
	}
	for _, e := range sd.Events {
		switch e.Kind {
		case "message":
			drawMessage(c, e, cols.centers, y)
		case "note":
			drawNote(c, e, cols.centers, y)
		case "block", "else":
			d := len(open)
			if e.Kind == "else" {
				d--
			}
			l, r := bounds(d)
			label := "[" + e.Block + "]"
			if e.Text != "" {
				label += " " + e.Text
			}
			c.hline(l, r, y)
			c.text(l+2, y, " "+label+" ")
			if e.Kind == "block" {
				open = append(open, y)
			}
		case "end":
			if len(open) == 0 {
				break
			}
			d := len(open) - 1
			l, r := bounds(d)
			top := open[d]
			open = open[:d]
			c.vline(l, top, y)
			c.vline(r, top, y)
			c.hline(l, r, y)
			c.hline(l, r, top)
		}
		y += seqRows(e)
	}
}

// seqRows is the number of rows an event takes, its blank row included.
func seqRows(e SeqEvent) int {
	switch e.Kind {
	case "message":
		if e.From == e.To {
			return 4
		}
		return 3
	case "note":
		return 4
	}
	return 2
}

// drawLabelBox draws a box with one centred line of text.
func drawLabelBox(c *canvas, x, y, w, h int, label string) {
	c.box(x, y, w, h, nil)
	c.text(x+(w-textWidth(label))/2, y+h/2, label)
}

// drawMessage draws a message: its text on the first row, its line on
// the second (a self-message loops out to the right over three rows).
func drawMessage(c *canvas, e SeqEvent, centers []int, y int) {
	dash := '─'
	if e.Dotted {
		dash = '╌'
	}
	if c.ascii {
		dash = '-'
		if e.Dotted {
			dash = '.'
		}
	}
	from, to := centers[e.From], centers[e.To]
	if e.From == e.To {
		c.hline(from, from+3, y)
		c.vline(from+3, y, y+2)
		c.hline(from, from+3, y+2)
		c.text(from+5, y+1, e.Text)
		c.set(from+1, y+2, headRune(e.Head, RightLeft, false, c.ascii))
		if e.Head == HeadNone {
			c.set(from+1, y+2, dash)
		}
		return
	}
	step := 1
	if to < from {
		step = -1
	}
	c.text(min(from, to)+(max(from, to)-min(from, to)+1-textWidth(e.Text))/2, y, e.Text)
	for x := from + step; x != to; x += step {
		c.set(x, y+1, dash)
	}
	dir := LeftRight
	if step < 0 {
		dir = RightLeft
	}
	if e.Head != HeadNone {
		c.set(to-step, y+1, headRune(e.Head, dir, false, c.ascii))
	}
	if step > 0 {
		c.addLine(from, y+1, right)
	} else {
		c.addLine(from, y+1, left)
	}
}

// drawNote draws a note's box beside or over its participants.
func drawNote(c *canvas, e SeqEvent, centers []int, y int) {
	w := textWidth(e.Text) + 4
	var x int
	switch e.Side {
	case "right":
		x = centers[e.From] + 2
	case "left":
		x = centers[e.From] - 2 - w
	default:
		l, r := centers[e.From], centers[e.To]
		w = max(w, r-l+4)
		x = (l+r)/2 - w/2
	}
	for yy := y; yy < y+3; yy++ { // the box hides the lifelines behind it
		for xx := x; xx < x+w; xx++ {
			if p := c.at(xx, yy); p != nil {
				*p = cell{}
			}
		}
	}
	c.box(x, y, w, 3, nil)
	c.text(x+2, y+1, e.Text)
}
