package vim

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mode is the engine's input mode.
type Mode int

// Input modes.
const (
	Normal Mode = iota
	Insert
	Visual     // v: a selection of characters
	VisualLine // V: a selection of whole lines
	Command    // typing the line of a :, / or ? command
)

// String is the mode as the tool shows it.
func (m Mode) String() string {
	switch m {
	case Insert:
		return "INSERT"
	case Visual:
		return "VISUAL"
	case VisualLine:
		return "VISUAL-LINE"
	case Command:
		return "COMMAND"
	}
	return "NORMAL"
}

// snapshot is the buffer and cursor at one point, an undo step.
type snapshot struct {
	lines     []string
	line, col int
	modified  bool
}

// Hooks are what ex commands need from the tool.
type Hooks struct {
	// Write saves the buffer (force: even if the file changed on disk)
	// and returns the status line to show.
	Write func(e *Engine, force bool) (string, error)
	// Reload replaces the buffer with the file on disk (e.Load).
	Reload func(e *Engine) error
	// Open replaces the buffer with another file (:e FILE): it loads
	// path, relative to the tool's directory, with e.Load and sets
	// e.Name.
	Open func(e *Engine, path string) error
}

// Engine is one file's editing state.
type Engine struct {
	Lines    []string // the buffer, at least one line
	Line     int      // cursor line, 0-based
	Col      int      // cursor column in runes, 0-based
	Modified bool     // the buffer differs from the file as last loaded or saved
	Closed   bool     // :q or ZZ closed the buffer
	Status   string   // what the last command reported
	// LastCommand is the kbd text of the last call, for display.
	LastCommand string
	ViewStart   int    // first line (1-based) of the viewport
	Name        string // the file's path as shown, for status lines (:q, :up)

	mode   Mode
	anchor pos // VISUAL modes: where the selection started
	// lastChange are the keys of the last change, for '.'; recording
	// collects those of a change still typing in INSERT mode.
	lastChange   []Key
	recording    []Key
	replaying    bool
	hooks        Hooks
	undo, redo   []snapshot
	insertFrom   *snapshot // the buffer when the current insert began
	insertWasMod bool      // Modified when the current insert began
	register     []string  // last deleted or yanked text
	regLinewise  bool
	search       string
	searchBack   bool
	// replacing is R's INSERT mode: typed characters overwrite;
	// replaced keeps what each one overwrote, for <BS>.
	replacing bool
	replaced  []rune
	// findKind and findChar are the last f F t T and its character, for
	// ; and , (findChar 0: none yet).
	findKind, findChar rune
	// lastVisual is the last visual selection, for gv.
	lastVisual *visualMark
	// lastSub are the flags of the last :s, for :s///&.
	lastSub subFlags
	// prompt is the :, / or ? whose line is being typed (COMMAND mode),
	// pending that line so far, promptCount the count before the key.
	prompt      Key
	pending     []rune
	promptCount int
	// resumeInsert: the line was started by <C-o> in INSERT mode, which
	// goes on once it is run or dropped.
	resumeInsert bool
}

// visualMark is a visual selection to come back to: its ends and mode.
type visualMark struct {
	anchor, cursor pos
	mode           Mode
}

// New returns an engine on lines (nil or empty: one empty line).
func New(lines []string, hooks Hooks) *Engine {
	if len(lines) == 0 {
		lines = []string{""}
	}
	return &Engine{Lines: lines, hooks: hooks, ViewStart: 1}
}

// SetHooks replaces the engine's hooks (the tool binds them to each call).
func (e *Engine) SetHooks(h Hooks) { e.hooks = h }

// Mode is the current input mode.
func (e *Engine) Mode() Mode { return e.mode }

// Load replaces the buffer with lines freshly read from disk: history and
// the modified flag are cleared, the cursor kept in range.
func (e *Engine) Load(lines []string) {
	if len(lines) == 0 {
		lines = []string{""}
	}
	e.Lines, e.Modified, e.mode, e.insertFrom, e.pending, e.resumeInsert = lines, false, Normal, nil, nil, false
	e.undo, e.redo, e.replacing, e.lastVisual = nil, nil, false, nil
	e.clamp()
}

// MarkSaved records that the buffer is what the file now holds: every
// state in the undo history now differs from the file, so undoing to one
// marks the buffer modified (and the tool saves it).
func (e *Engine) MarkSaved() {
	e.Modified = false
	for i := range e.undo {
		e.undo[i].modified = true
	}
	for i := range e.redo {
		e.redo[i].modified = true
	}
}

// snap copies the current state.
func (e *Engine) snap() snapshot {
	return snapshot{lines: slices.Clone(e.Lines), line: e.Line, col: e.Col, modified: e.Modified}
}

// change records the state before a change, for undo. A change clears
// the status line (the reference shows only what the last command that
// changed nothing reported).
func (e *Engine) change() {
	e.undo = append(e.undo, e.snap())
	e.redo = nil
	e.Modified = true
	e.Status = ""
}

// restore puts a snapshot back.
func (e *Engine) restore(s snapshot) {
	e.Lines, e.Line, e.Col, e.Modified = slices.Clone(s.lines), s.line, s.col, s.modified
	e.clamp()
}

// RollbackInsert leaves INSERT mode undoing what was typed since it began.
func (e *Engine) RollbackInsert() {
	if e.mode != Insert {
		return
	}
	if e.insertFrom != nil {
		e.restore(*e.insertFrom)
		if n := len(e.undo); n > 0 {
			e.undo = e.undo[:n-1]
		}
		e.Modified = e.insertWasMod
	}
	e.mode, e.insertFrom, e.replacing, e.replaced = Normal, nil, false, nil
}

// runes is line l as runes.
func (e *Engine) runes(l int) []rune { return []rune(e.Lines[l]) }

// lineLen is the length of line l in runes.
func (e *Engine) lineLen(l int) int { return len(e.runes(l)) }

// clamp keeps the cursor on the buffer (in NORMAL mode on a character).
func (e *Engine) clamp() {
	if len(e.Lines) == 0 {
		e.Lines = []string{""}
	}
	e.Line = max(0, min(e.Line, len(e.Lines)-1))
	limit := e.lineLen(e.Line)
	if e.mode == Normal && limit > 0 {
		limit--
	}
	e.Col = max(0, min(e.Col, limit))
}

// firstNonBlank is the column of line l's first non-blank character.
func (e *Engine) firstNonBlank(l int) int {
	for i, r := range e.runes(l) {
		if r != ' ' && r != '\t' {
			return i
		}
	}
	return 0
}

// Exec runs keys. On an error the keys before the failing one have taken
// effect.
func (e *Engine) Exec(keys []Key) error {
	for i := 0; i < len(keys) && !e.Closed; {
		var err error
		switch e.mode {
		case Insert:
			if keys[i].Special == "C-o" {
				i, err = e.insertNormal(keys, i+1)
				break
			}
			err = e.insertKey(keys[i])
			e.record(keys[i : i+1])
			i++
		case Command:
			err = e.promptKey(keys[i])
			i++
		case Visual, VisualLine:
			i, err = e.visual(keys, i)
		default:
			start, changes := i, len(e.undo)
			_, cmd := readCount(keys, i)
			isRepeat := cmd < len(keys) && keys[cmd].Is('.') // '.' is not itself recorded
			i, err = e.normal(keys, i)
			if err == nil && !e.replaying && !isRepeat && (len(e.undo) > changes || e.mode == Insert) {
				e.recording = slices.Clone(keys[start:i])
				e.record(nil)
			}
		}
		if err != nil {
			return err
		}
		if !e.Closed {
			e.EnsureCursorVisible() // after every command, as omp scrolls
		}
	}
	return nil
}

// insertNormal runs the one NORMAL-mode command at keys[i] from INSERT
// mode (<C-o>) and goes back to INSERT mode; the command is not part of
// the change '.' repeats.
func (e *Engine) insertNormal(keys []Key, i int) (int, error) {
	if i >= len(keys) {
		return i, nil
	}
	e.mode = Normal
	next, err := e.normal(keys, i)
	switch e.mode {
	case Command:
		e.resumeInsert = true // after the : or / line
	case Visual, VisualLine:
		e.mode = Insert // no selection from INSERT mode (omp drops it too)
	case Normal:
		e.mode = Insert
	}
	return next, err
}

// InsertText types text in INSERT mode ("\n" breaks the line) and, with
// exit, leaves it as <Esc> would.
func (e *Engine) InsertText(text string, exit bool) error {
	if e.mode != Insert {
		return &Error{Msg: "Insert payload requires INSERT mode."}
	}
	for _, r := range text {
		e.record([]Key{{Char: r}})
		if r == '\n' {
			e.splitLine()
			continue
		}
		e.typeRune(r)
	}
	if exit {
		e.leaveInsert()
		e.record([]Key{{Special: "Esc"}})
	}
	return nil
}

// record adds keys to the change being recorded; once the change is
// complete (back in NORMAL mode) it becomes the one '.' repeats.
func (e *Engine) record(keys []Key) {
	if e.recording == nil || e.replaying {
		return
	}
	e.recording = append(e.recording, keys...)
	if e.mode == Normal {
		e.lastChange, e.recording = e.recording, nil
	}
}

// repeat runs the last change n times ('.').
func (e *Engine) repeat(n int, k Key) error {
	if len(e.lastChange) == 0 {
		return errAt(k, "No previous change to repeat")
	}
	e.replaying = true
	defer func() { e.replaying = false }()
	e.LastCommand, e.Status = ".", ""
	for range min(n, maxRepeat) {
		if err := e.Exec(e.lastChange); err != nil {
			return err
		}
	}
	return nil
}

// enterInsert starts INSERT mode; the state before it is the undo step.
func (e *Engine) enterInsert() {
	e.Status = ""
	if e.insertFrom == nil {
		s := e.snap()
		e.insertFrom, e.insertWasMod = &s, e.Modified
		e.undo = append(e.undo, s)
		e.redo = nil
	}
	e.mode = Insert
	// What the command does on entering (o opens a line, c deletes) and
	// what is typed changes the buffer; an insert that changes nothing
	// gives the flag back when it ends.
	e.Modified = true
}

// leaveInsert returns to NORMAL mode, the cursor on the last character
// typed.
func (e *Engine) leaveInsert() {
	if e.insertFrom != nil && slices.Equal(e.insertFrom.lines, e.Lines) {
		e.undo = e.undo[:len(e.undo)-1] // nothing typed: no undo step
		e.Modified = e.insertWasMod
	}
	e.mode, e.insertFrom, e.replacing, e.replaced = Normal, nil, false, nil
	e.Col--
	e.clamp()
}

// insertKey handles one key in INSERT mode.
func (e *Engine) insertKey(k Key) error {
	switch k.Special {
	case "":
		if k.Char == '\n' {
			e.splitLine()
		} else {
			e.typeRune(k.Char)
		}
	case "Esc":
		e.leaveInsert()
	case "CR":
		e.splitLine()
	case "Tab":
		e.typeRune('\t')
	case "BS":
		if e.replacing {
			e.unreplace(e.Col-1, false)
			break
		}
		if e.Col > 0 {
			rs := e.runes(e.Line)
			e.Lines[e.Line] = string(rs[:e.Col-1]) + string(rs[e.Col:])
			e.Col--
		} else if e.Line > 0 {
			prev := e.lineLen(e.Line - 1)
			e.Lines[e.Line-1] += e.Lines[e.Line]
			e.Lines = slices.Delete(e.Lines, e.Line, e.Line+1)
			e.Line, e.Col = e.Line-1, prev
		}
	case "C-w", "C-u":
		// <C-w> deletes the word before the cursor (or the blanks and
		// the word), <C-u> everything before it on the line; at the
		// start of a line both join it to the one above, as <BS>.
		if e.Col == 0 && !e.replacing {
			return e.insertKey(Key{Special: "BS"})
		}
		rs := e.runes(e.Line)
		col := min(e.Col, len(rs))
		start := 0
		if k.Special == "C-w" {
			start = col
			for start > 0 && class(rs[start-1], false) == 0 {
				start--
			}
			if start > 0 {
				c := class(rs[start-1], false)
				for start > 0 && class(rs[start-1], false) == c {
					start--
				}
			}
		}
		if e.replacing {
			e.unreplace(start, true)
			break
		}
		e.Lines[e.Line] = string(rs[:start]) + string(rs[col:])
		e.Col = start
	default:
		return errAt(k, "Unsupported key in INSERT mode: %s", k.Display())
	}
	return nil
}

// typeRune types r: inserted, or in R's mode over the character at the
// cursor.
func (e *Engine) typeRune(r rune) {
	if !e.replacing {
		e.insertRune(r)
		return
	}
	rs := e.runes(e.Line)
	if e.Col >= len(rs) {
		e.replaced = append(e.replaced, appended)
		e.insertRune(r)
		return
	}
	e.replaced = append(e.replaced, rs[e.Col])
	rs[e.Col] = r
	e.Lines[e.Line] = string(rs)
	e.Col++
}

// appended and lineBreak stand in R's undo list for a character typed
// past the line's end and for a line break.
const (
	appended  rune = -1
	lineBreak rune = -2
)

// unreplace backs up in R's mode to column col (or over one line break),
// putting back what was overwritten; before what this R typed it only
// moves, or with typedOnly (<C-w>, <C-u>) stops.
func (e *Engine) unreplace(col int, typedOnly bool) {
	if e.Col == 0 {
		n := len(e.replaced)
		if n > 0 && e.replaced[n-1] == lineBreak && e.Line > 0 {
			e.replaced = e.replaced[:n-1]
			prev := e.lineLen(e.Line - 1)
			e.Lines[e.Line-1] += e.Lines[e.Line]
			e.Lines = slices.Delete(e.Lines, e.Line, e.Line+1)
			e.Line, e.Col = e.Line-1, prev
		}
		return
	}
	for e.Col > max(col, 0) {
		n := len(e.replaced)
		if n == 0 || e.replaced[n-1] == lineBreak {
			if typedOnly {
				return
			}
			e.Col--
			continue
		}
		orig := e.replaced[n-1]
		e.replaced = e.replaced[:n-1]
		rs := e.runes(e.Line)
		if orig == appended {
			rs = slices.Delete(rs, e.Col-1, e.Col)
		} else {
			rs[e.Col-1] = orig
		}
		e.Lines[e.Line] = string(rs)
		e.Col--
	}
}

func (e *Engine) insertRune(r rune) {
	rs := e.runes(e.Line)
	col := min(e.Col, len(rs))
	e.Lines[e.Line] = string(rs[:col]) + string(r) + string(rs[col:])
	e.Col = col + 1
}

func (e *Engine) splitLine() {
	if e.replacing {
		e.replaced = append(e.replaced, lineBreak)
	}
	rs := e.runes(e.Line)
	col := min(e.Col, len(rs))
	e.Lines[e.Line] = string(rs[:col])
	e.Lines = slices.Insert(e.Lines, e.Line+1, string(rs[col:]))
	e.Line, e.Col = e.Line+1, 0
}

// maxCount bounds a count: larger ones act as this one (no buffer a model
// edits has more lines or words to move over in one command).
const maxCount = 100_000

// maxRepeat bounds the count of '.' (each repetition may copy the buffer
// for undo).
const maxRepeat = 1000

// maxPut bounds the text one put may add.
const maxPut = 16 << 20

// readCount reads a count at keys[i:]: it returns the count (0 for none)
// and the index after it.
func readCount(keys []Key, i int) (int, int) {
	n := 0
	for i < len(keys) && keys[i].Special == "" && keys[i].Char >= '0' && keys[i].Char <= '9' {
		if n == 0 && keys[i].Char == '0' {
			break // 0 is a motion, not the start of a count
		}
		n = min(n*10+int(keys[i].Char-'0'), maxCount)
		i++
	}
	return n, i
}

// normal runs one NORMAL-mode command starting at keys[i] and returns the
// index after it.
func (e *Engine) normal(keys []Key, i int) (int, error) {
	count, i := readCount(keys, i)
	if i >= len(keys) {
		return i, nil
	}
	k := keys[i]
	i++
	n := max(count, 1)
	if k.Special == "BS" {
		k = Key{Char: 'h', Seq: k.Seq, Offset: k.Offset} // <BS> moves left, as h
	}
	if k.Special != "" {
		switch k.Special {
		case "Esc":
			return i, nil
		case "CR":
			e.Line += n
			e.clamp()
			e.Col = e.firstNonBlank(e.Line)
			return i, nil
		case "C-r":
			return i, e.redoN(n)
		case "C-d", "C-u":
			step := n * DefaultViewLines / 2 // half a view per count, as omp
			if k.Special == "C-u" {
				step = -step
			}
			e.Line += step
			e.clamp()
			return i, nil
		}
		return i, errAt(k, "Unsupported command: %s", k.Display())
	}
	switch k.Char {
	case 'v', 'V':
		e.anchor = pos{e.Line, e.Col}
		e.mode = Visual
		if k.Char == 'V' {
			e.mode = VisualLine
		}
	case 'i':
		e.toCountLine(count) // as omp reads 3i: 3Gi, the slip models make
		e.enterInsert()
	case 'R':
		e.enterInsert()
		e.replacing, e.replaced = true, nil
	case 'a':
		e.enterInsert()
		e.Col = min(e.Col+1, e.lineLen(e.Line))
	case 'I':
		e.enterInsert()
		e.Col = e.firstNonBlank(e.Line)
	case 'A':
		e.enterInsert()
		e.Col = e.lineLen(e.Line)
	case 'o', 'O':
		e.toCountLine(count) // 3o is 3Go, as omp reads it
		e.enterInsert()
		at := e.Line + 1
		if k.Char == 'O' {
			at = e.Line
		}
		e.Lines = slices.Insert(e.Lines, at, "")
		e.Line, e.Col = at, 0
	case 'x', 'X':
		rs := e.runes(e.Line)
		from, to := e.Col, min(e.Col+n, len(rs))
		if k.Char == 'X' {
			from, to = max(0, e.Col-n), e.Col
		}
		if from < to {
			e.change()
			e.register, e.regLinewise = []string{string(rs[from:to])}, false
			e.Lines[e.Line] = string(rs[:from]) + string(rs[to:])
			e.Col = from
			e.clamp()
		}
	case 'r':
		if i >= len(keys) || keys[i].Special != "" && keys[i].Special != "CR" {
			return i, errAt(k, "r requires a replacement character")
		}
		c := keys[i].Char
		if keys[i].Special == "CR" {
			c = '\n'
		}
		i++
		rs := e.runes(e.Line)
		if e.Col+n > len(rs) {
			return i, nil
		}
		e.change()
		if c == '\n' {
			e.Lines[e.Line] = string(rs[:e.Col])
			e.Lines = slices.Insert(e.Lines, e.Line+1, string(rs[e.Col+n:]))
			e.Line, e.Col = e.Line+1, 0
			return i, nil
		}
		for j := e.Col; j < e.Col+n; j++ {
			rs[j] = c
		}
		e.Lines[e.Line] = string(rs)
		e.Col += n - 1
	case '~':
		rs := e.runes(e.Line)
		if len(rs) == 0 {
			break
		}
		e.change()
		end := min(e.Col+n, len(rs))
		for j := e.Col; j < end; j++ {
			if unicode.IsUpper(rs[j]) {
				rs[j] = unicode.ToLower(rs[j])
			} else {
				rs[j] = unicode.ToUpper(rs[j])
			}
		}
		e.Lines[e.Line] = string(rs)
		e.Col = end
		e.clamp()
	case 'd', 'c', 'y', '>', '<':
		return e.operator(k, keys, i, count)
	case 'z':
		return e.scroll(k, keys, i)
	case 'g':
		if i < len(keys) && keys[i].Special == "" {
			switch g := keys[i]; g.Char {
			case 'J':
				e.join(max(n, 2), false)
				return i + 1, nil
			case 'v':
				if m := e.lastVisual; m != nil {
					e.anchor, e.mode = m.anchor, m.mode
					e.Line, e.Col = m.cursor.line, m.cursor.col
					e.clamp()
				}
				return i + 1, nil
			case '*', '#':
				return i + 1, e.searchWord(g, n, false)
			case 'u', 'U', '~':
				if i+1 >= len(keys) {
					return i + 1, errAt(g, "g%c requires a motion", g.Char)
				}
				return e.operator(g, keys, i+1, count)
			}
		}
		t, next, ok, err := e.motion(k, keys, i, count, false)
		if err == nil && ok {
			e.Line, e.Col = t.line, t.col
			e.clamp()
		}
		return next, err
	case 'D', 'C':
		_, err := e.operator(Key{Char: unicode.ToLower(k.Char), Seq: k.Seq, Offset: k.Offset}, []Key{{Char: '$'}}, 0, n)
		return i, err
	case 's':
		_, err := e.operator(Key{Char: 'c', Seq: k.Seq, Offset: k.Offset}, []Key{{Char: 'l'}}, 0, n)
		return i, err
	case 'S':
		_, err := e.operator(Key{Char: 'c', Seq: k.Seq, Offset: k.Offset}, []Key{{Char: 'c'}}, 0, n)
		return i, err
	case 'Y':
		_, err := e.operator(Key{Char: 'y', Seq: k.Seq, Offset: k.Offset}, []Key{{Char: 'y'}}, 0, n)
		return i, err
	case 'p', 'P':
		size := 0
		for _, l := range e.register {
			size += len(l) + 1
		}
		if size*n > maxPut {
			return i, errAt(k, "Count too large: %d copies of the register would add over %d MiB", n, maxPut>>20)
		}
		e.put(k.Char == 'P', n)
	case 'J':
		e.join(max(n, 2), true)
	case 'u':
		return i, e.undoN(n)
	case '.':
		return i, e.repeat(n, k)
	case '/', '?', ':':
		e.mode, e.prompt, e.pending, e.promptCount = Command, k, nil, count
	case '*', '#':
		return i, e.searchWord(k, n, true)
	case 'n', 'N':
		if e.search == "" {
			return i, errAt(k, "No previous search")
		}
		return i, e.findN(n, e.searchBack != (k.Char == 'N'), k)
	case 'Z':
		if i >= len(keys) {
			return i, errAt(k, "Z requires a second key")
		}
		z := keys[i]
		i++
		switch {
		case z.Is('Z'):
			return i, e.ex("x")
		case z.Is('Q'):
			return i, e.ex("q!")
		default:
			return i, errAt(z, "Unsupported Z command: Z%s", z.Display())
		}
	default:
		t, next, ok, err := e.motion(k, keys, i, count, false)
		if err != nil {
			return next, err
		}
		if !ok {
			return i, errAt(k, "Unsupported command: %s", k.Display())
		}
		e.Line, e.Col = t.line, t.col
		e.clamp()
		return next, nil
	}
	return i, nil
}

// toCountLine moves to line count (1-based, clamped) when a count was
// given.
func (e *Engine) toCountLine(count int) {
	if count > 0 {
		e.Line, e.Col = min(count, len(e.Lines))-1, 0
	}
}

// searchWord searches for the word under the cursor (* and #, whole words
// only; g* and g#, anywhere) n times.
func (e *Engine) searchWord(k Key, n int, whole bool) error {
	rs := e.runes(e.Line)
	if e.Col >= len(rs) || class(rs[e.Col], false) == 0 {
		return errAt(k, "No word under cursor")
	}
	cl := class(rs[e.Col], false)
	s, t := e.Col, e.Col
	for s > 0 && class(rs[s-1], false) == cl {
		s--
	}
	for t < len(rs) && class(rs[t], false) == cl {
		t++
	}
	e.search, e.searchBack = vimQuote(string(rs[s:t])), k.Char == '#'
	if whole {
		e.search = `\b` + e.search + `\b`
	}
	return e.findN(n, e.searchBack, k)
}

// foldKeys are the z commands on folds: there are none, so they do
// nothing (as omp, which says so).
const foldKeys = "aAcCmMoOrRvxX"

// scroll runs a z command (k is the z, keys[i] the second key): zz z. put
// the cursor's line in the middle of the view, zt z<CR> at its top, zb z-
// at its bottom; all but zz also go to the line's first non-blank.
func (e *Engine) scroll(k Key, keys []Key, i int) (int, error) {
	if i >= len(keys) {
		return i, errAt(k, "z requires a second key")
	}
	z := keys[i]
	switch {
	case z.Is('z'):
		e.CenterOnCursor()
	case z.Is('.'):
		e.CenterOnCursor()
		e.Col = e.firstNonBlank(e.Line)
	case z.Is('t') || z.Special == "CR":
		e.ViewStart = e.Line + 1
		e.Col = e.firstNonBlank(e.Line)
	case z.Is('b') || z.Is('-'):
		e.ViewStart = max(1, e.Line+1-(DefaultViewLines-1))
		e.Col = e.firstNonBlank(e.Line)
	case z.Special == "" && strings.ContainsRune(foldKeys, z.Char):
		e.Status = "Ignored z" + z.Display() + " (folds unsupported)"
	default:
		return i + 1, errAt(z, "Unsupported z command: z%s", z.Display())
	}
	return i + 1, nil
}

// put pastes the register after (or, with before, at) the cursor n times.
func (e *Engine) put(before bool, n int) {
	if len(e.register) == 0 {
		e.Status = "Register empty"
		return
	}
	e.change()
	if e.regLinewise {
		var block []string
		for range n {
			block = append(block, e.register...)
		}
		at := e.Line + 1
		if before {
			at = e.Line
		}
		e.Lines = slices.Insert(e.Lines, at, block...)
		e.Line = at
		e.Col = e.firstNonBlank(at)
		return
	}
	text := strings.Repeat(strings.Join(e.register, "\n"), n)
	rs := e.runes(e.Line)
	at := min(e.Col+1, len(rs))
	if before || len(rs) == 0 {
		at = min(e.Col, len(rs))
	}
	parts := strings.Split(string(rs[:at])+text+string(rs[at:]), "\n")
	e.Lines = slices.Replace(e.Lines, e.Line, e.Line+1, parts...)
	if len(parts) == 1 {
		e.Col = at + len([]rune(text)) // after the pasted text, as the reference leaves it
	} else {
		e.Col = at
	}
}

// join joins n lines from the cursor's (with spaces, as J, or as they
// are).
func (e *Engine) join(n int, spaced bool) {
	last := min(e.Line+n-1, len(e.Lines)-1)
	if last == e.Line {
		e.Status = "Nothing to join"
		return
	}
	e.change()
	var b strings.Builder
	b.WriteString(e.Lines[e.Line])
	runes := utf8.RuneCountInString(e.Lines[e.Line])
	lastByte := byte(0)
	if cur := e.Lines[e.Line]; cur != "" {
		lastByte = cur[len(cur)-1]
	}
	for l := e.Line + 1; l <= last; l++ {
		next := e.Lines[l]
		if spaced {
			// J: the next line's indentation goes, and one space joins
			// them unless the line ends in white space or the next one
			// starts with ')'.
			next = strings.TrimLeft(next, " \t")
			if b.Len() > 0 && next != "" && lastByte != ' ' && lastByte != '\t' && !strings.HasPrefix(next, ")") {
				b.WriteByte(' ')
				runes++
			}
		}
		b.WriteString(next)
		runes += utf8.RuneCountInString(next)
		if next != "" {
			lastByte = next[len(next)-1]
		}
	}
	joined := b.String()
	e.Lines = slices.Replace(e.Lines, e.Line, last+1, joined)
	e.Col = runes - 1 // on the last character, where the reference leaves it
	e.clamp()
}

// undoN undoes up to n changes.
func (e *Engine) undoN(n int) error { return e.travel(&e.undo, &e.redo, n, "Undid") }

// redoN redoes up to n undone changes.
func (e *Engine) redoN(n int) error { return e.travel(&e.redo, &e.undo, n, "Redid") }

// travel moves up to n states from the from stack back into the buffer,
// saving the current ones on to, and reports it as verb.
func (e *Engine) travel(from, to *[]snapshot, n int, verb string) error {
	done := 0
	for ; done < n && len(*from) > 0; done++ {
		s := (*from)[len(*from)-1]
		*from = (*from)[:len(*from)-1]
		*to = append(*to, e.snap())
		e.restore(s)
	}
	e.Status = fmt.Sprintf("%s %d change%s", verb, done, plural(done))
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
