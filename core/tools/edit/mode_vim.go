package edit

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
	"github.com/gopi-agent/gopi/core/tools/edit/vim"
)

// vimDescription tells the model how to use vim mode.
const vimDescription = `Edit a file the way vim does. Every call names file; its buffer opens on first use and stays open
(cursor, undo history) across calls until :q, ZZ or :wq closes it.
- {"file": "path"} shows the file around the cursor.
- {"file": "path", "steps": [{"kbd": ["..."], "insert": "..."}]} edits it. Each step runs its kbd key
  sequences, then types insert (if given) and leaves INSERT mode. The buffer is saved after the last
  step unless pause is true.

kbd holds vim keys only, never text: "3Go" opens a line below line 3, "3GO" above it, "5Gcc" replaces
line 5, "ggdGi" empties the file; the text to type goes in insert ("\n" for line breaks, no leading
"\n" after o or O). When a step has insert, its last kbd entry must end in INSERT mode (o O i a I A cc
C s S R); every other kbd entry must end in NORMAL mode (add <Esc>). A count before i, o or O goes to
that line first: "3o" is "3Go". Edit the highest line first when a call changes several places, since
inserted lines shift the rest.

Keys: counts; h j k l w b e W B E ge gE 0 ^ $ g_ | gg G H M L f F t T ; , % { } + - _ (H is the view's
first line, M 20 lines below it, L 39); d c y > < with motions, dd cc yy >> << and the text objects iw aw
i" a" i' a' i( a( i{ a{ i[ a[ ip ap; gu gU g~ likewise; x X D C s S Y p P J gJ r ~ u <C-r> . i a I A o O;
R types over the text; /re<CR> ?re<CR> n N * # g* g#; <Esc> <CR> <BS> <Tab> <C-d> <C-u>; zz z. zt z<CR>
zb z- scroll the view; ZZ ZQ. In INSERT mode <BS> <C-w> <C-u>, and <C-o> runs one NORMAL command.
Visual: v V, gv to select again, moved with motions or set with a text object, then d x y c s C > < ~ u U
gu gU g~ r p J gJ (o swaps the ends). In : and / lines <BS> takes back a character and <Esc> cancels;
a line without <CR> waits in COMMAND mode for the next keys, in this call or the next.
Ex (":" ... "<CR>"): :N, :w, :up, :wq, :x, :q, :q!, :e!, :e FILE (edit FILE in this buffer's place),
:[range]d, :[range]y, :[range]s/re/new/[flags] (g all, i ignore case, n count only, e no error if
none; c is ignored), :[range]g/re/d, :v/re/d, :[range]j, :[range]m N, :[range]t N, :put, :put!, :sort
(! reverses, i ignores case), :[N]a TEXT and :[N]i TEXT (add lines after or before line N). Ranges: N,
., $, +N, -N, %, A,B, A;B (B counted from A). Patterns are regular expressions where, as in vim,
( ) { } | + are literal and \( \) \{ \} \| \+ are operators; & and \1..\9 in the replacement stand for
the match and its groups. u undoes a change; :e! reloads the file as last saved.`

// vimSchema is vim mode's parameter schema (omp's, field for field).
func vimSchema() *tool.Schema {
	step := tool.Object(map[string]*tool.Schema{
		"kbd":    {Type: "array", Items: tool.String(""), Description: "Vim key sequences, e.g. [\"3Go\"] or [\"dd\"]"},
		"insert": tool.String("Text to type after the keys (INSERT mode)"),
	}, "kbd")
	return tool.Object(map[string]*tool.Schema{
		"file":  tool.String("The file to edit"),
		"steps": {Type: "array", Items: step, Description: "Editing steps, run in order"},
		"pause": tool.Boolean("Leave the changes unsaved (and INSERT mode open) after the last step"),
	}, "file")
}

// vimArgs are vim mode's arguments.
type vimArgs struct {
	File  string    `json:"file"`
	Steps []vimStep `json:"steps"`
	Pause bool      `json:"pause"`
}

// vimStep is one editing step.
type vimStep struct {
	Kbd    []string `json:"kbd"`
	Insert *string  `json:"insert"`
}

// vimBuffers are the session's open vim buffers, by absolute path.
type vimBuffers struct {
	mu   sync.Mutex
	open map[string]*vimBuffer
}

// vimBuffer is one open file.
type vimBuffer struct {
	eng   *vim.Engine
	file  loaded    // path, encoding (byte-order mark, line breaks)
	final bool      // the text ends with a line break
	stamp fileStamp // the file on disk when loaded or last saved
}

// errVimChangedOnDisk is the reference's refusal to overwrite a file that
// changed behind an open buffer.
var errVimChangedOnDisk = errors.New("File changed on disk since open; reload with :e! before saving.")

// runVim runs one vim-mode call.
func (t *Tool) runVim(a vimArgs) (*tool.Result, error) {
	if strings.TrimSpace(a.File) == "" {
		return nil, errors.New("file is empty: name the file to edit")
	}
	if err := t.refusePath(a.File); err != nil {
		return nil, err
	}
	abs := t.env.Resolve(a.File)
	unlock, err := lock(abs)
	if err != nil {
		return nil, err
	}
	defer unlock()
	t.vim.mu.Lock()
	defer t.vim.mu.Unlock()

	buf := t.vim.open[abs]
	opened := buf == nil
	if opened {
		if buf, err = t.openVim(abs, a.File); err != nil {
			return nil, err
		}
		t.vim.open[abs] = buf
	} else if !buf.eng.Modified && stampOf(abs) != buf.stamp {
		// The file changed behind a buffer without changes of its own (a
		// formatter, another tool): take the new content rather than
		// editing, and later saving, the old one. (omp only takes the new
		// time stamp, and its next save loses the change.)
		if err := t.reloadVim(buf); err != nil {
			return nil, err
		}
	}
	eng := buf.eng
	before := buf.text()
	eng.SetHooks(vim.Hooks{
		Write:  func(e *vim.Engine, force bool) (string, error) { return t.saveVim(buf, force) },
		Reload: func(e *vim.Engine) error { return t.reloadVim(buf) },
		Open: func(e *vim.Engine, path string) error {
			if err := t.switchVim(buf, path); err != nil {
				return err
			}
			before = buf.text() // the call's diff is of the file now open
			return nil
		},
	})
	if len(a.Steps) == 0 {
		shown := buf.file.shown
		if opened {
			eng.Status = "Opened " + shown
		}
		return tool.TextResult(eng.Render(vim.View{File: shown, Lines: vim.OpenViewLines}), &Details{Mode: string(tool.EditVim), Path: shown}), nil
	}

	if err := runVimSteps(eng, a.Steps, a.Pause); err != nil {
		return nil, t.vimFailure(buf, err)
	}
	if m := eng.Mode(); a.Pause && !eng.Closed && (m == vim.Insert || m == vim.Command) && eng.Status == "" {
		eng.Status = "Paused in " + m.String() + " mode"
	}
	if buf.text() != before {
		eng.CenterOnCursor()
	} else {
		eng.EnsureCursorVisible()
	}
	closed := eng.Closed
	if !closed && eng.Modified && !a.Pause {
		if _, err := t.saveVim(buf, false); err != nil {
			return nil, t.vimFailure(buf, err)
		}
	}
	if closed {
		delete(t.vim.open, buf.file.abs)
	}
	shown := buf.file.shown
	after := buf.text()
	details := &Details{Mode: string(tool.EditVim), Path: shown}
	var hunks string
	if after != before {
		a, aFinal := textfile.Lines(before)
		b, bFinal := textfile.Lines(after)
		edits := diff.Lines(a, b)
		details.Diff = diff.UnifiedScript(shown, edits, len(a), len(b), aFinal, bFinal)
		details.FirstChangedLine = diff.FirstChange(edits)
		hunks = hunksOnly(details.Diff)
	}
	text := eng.Render(vim.View{File: shown, Lines: vim.DefaultViewLines, Diff: hunks, Closed: closed})
	return tool.TextResult(text, details), nil
}

// hunksOnly drops the ---/+++ header of a unified diff.
func hunksOnly(d string) string {
	lines := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
	if len(lines) >= 2 && strings.HasPrefix(lines[0], "--- ") && strings.HasPrefix(lines[1], "+++ ") {
		lines = lines[2:]
	}
	return strings.Join(lines, "\n")
}

// vimFailure is the error of a failed call: the buffer's view with the
// error as its status and the failing key's position.
func (t *Tool) vimFailure(buf *vimBuffer, err error) error {
	var verr *vim.Error
	view := vim.View{File: buf.file.shown, Lines: vim.DefaultViewLines, Status: err.Error(), Closed: buf.eng.Closed}
	if errors.As(err, &verr) {
		view.ErrorAt = verr.Key
	}
	buf.eng.EnsureCursorVisible()
	return &tool.Error{Msg: buf.eng.Render(view), Err: err}
}

// insertModeKeys are the entries that leave a step in INSERT mode.
var insertModeKeys = regexp.MustCompile(`^(\d+)G(o|O|cc|C|S|s|i|I|a|A)$`)

// runVimSteps runs the steps as the reference does: steps that each open a
// line at an ascending line number are run bottom-up; INSERT mode left
// open between steps is rolled back; a kbd entry other than the last that
// ends in INSERT mode is refused.
func runVimSteps(eng *vim.Engine, steps []vimStep, pause bool) error {
	steps = bottomUp(steps)
	for i, s := range steps {
		if eng.Closed {
			break
		}
		last := i == len(steps)-1
		hasKbd := false
		for _, k := range s.Kbd {
			hasKbd = hasKbd || k != ""
		}
		if eng.Mode() == vim.Insert && (hasKbd || s.Insert == nil) && !(!hasKbd && s.Insert == nil && last && pause) {
			eng.RollbackInsert()
		}
		// All entries are read before any runs; the command shown is the
		// last step's that had keys.
		var parsed [][]vim.Key
		for j, entry := range s.Kbd {
			keys, err := vim.ParseKeys([]string{entry})
			if err != nil {
				return relocate(err, j)
			}
			for n := range keys {
				keys[n].Seq = j
			}
			parsed = append(parsed, keys)
		}
		if len(s.Kbd) > 0 {
			eng.LastCommand, eng.Status = strings.Join(s.Kbd, " "), ""
		}
		for j, entry := range s.Kbd {
			keys := parsed[j]
			if len(keys) == 0 {
				continue
			}
			if err := eng.Exec(keys); err != nil {
				return err
			}
			if j < len(s.Kbd)-1 && eng.Mode() == vim.Insert {
				eng.RollbackInsert()
				hint := "Use the insert field for inserted text, or include <Esc> to return to NORMAL mode before the next kbd entry."
				if next := s.Kbd[j+1]; strings.ContainsAny(next, " \t") && !strings.HasPrefix(next, ":") && !strings.HasPrefix(next, "/") {
					hint += fmt.Sprintf(" The next entry (%q) looks like text: put it in insert, and use another step for another place.", next)
				}
				return &vim.Error{Msg: fmt.Sprintf("Sequence %d (`%s`) entered INSERT mode — changes rolled back. %s", j+1, entry, hint), Key: &keys[len(keys)-1]}
			}
		}
		if !eng.Closed && s.Insert != nil && (*s.Insert != "" || eng.Mode() == vim.Insert) {
			text := strings.TrimSuffix(*s.Insert, "\n")
			if err := eng.InsertText(text, !(last && pause)); err != nil {
				return err
			}
		}
		if !last && eng.Mode() == vim.Insert {
			eng.RollbackInsert()
		}
	}
	return nil
}

// relocate sets the sequence index of a key parse error.
func relocate(err error, seq int) error {
	var verr *vim.Error
	if errors.As(err, &verr) && verr.Key != nil {
		verr.Key.Seq = seq
		verr.Msg = strings.Replace(verr.Msg, "in sequence 1", fmt.Sprintf("in sequence %d", seq+1), 1)
	}
	return err
}

// bottomUp reorders steps that each are one "NG<insert command>" entry at
// strictly ascending lines so the lowest line is edited last; any other
// list is run as given.
func bottomUp(steps []vimStep) []vimStep {
	if len(steps) < 2 {
		return steps
	}
	lines := make([]int, len(steps))
	for i, s := range steps {
		if len(s.Kbd) != 1 {
			return steps
		}
		m := insertModeKeys.FindStringSubmatch(s.Kbd[0])
		if m == nil {
			return steps
		}
		fmt.Sscan(m[1], &lines[i])
		if i > 0 && lines[i] <= lines[i-1] {
			return steps
		}
	}
	out := make([]vimStep, len(steps))
	for i := range steps {
		out[i] = steps[len(steps)-1-i]
	}
	return out
}

// openVim loads a file into a new buffer; a missing file opens empty and
// is created by the first save.
func (t *Tool) openVim(abs, shown string) (*vimBuffer, error) {
	f, err := t.loadVim(abs, shown)
	if err != nil {
		return nil, err
	}
	buf := &vimBuffer{file: f, stamp: stampOf(abs)}
	lines, final := textfile.Lines(f.doc.Text)
	buf.final = final
	buf.eng = vim.New(lines, vim.Hooks{})
	buf.eng.Name = shown
	return buf, nil
}

// loadVim reads a file for a vim buffer: a regular file (or none yet) of
// UTF-8 text.
func (t *Tool) loadVim(abs, shown string) (loaded, error) {
	if fi, err := os.Stat(abs); err == nil && !fi.Mode().IsRegular() {
		return loaded{}, fmt.Errorf("Not a regular file: %s", abs)
	}
	f, err := t.load(abs, shown)
	if err != nil {
		return f, err
	}
	if !utf8.ValidString(f.doc.Text) {
		return f, errors.New("Edit tool in vim mode only supports UTF-8 text files in v1")
	}
	return f, nil
}

// switchVim puts the file at path in buf's place (:e FILE): the buffer
// is then that file's, under its path, and the one it showed is closed.
// A file open in another buffer is refused, so no file has two.
func (t *Tool) switchVim(buf *vimBuffer, path string) error {
	if err := t.refusePath(path); err != nil {
		return err
	}
	abs := t.env.Resolve(path)
	if other := t.vim.open[abs]; other != nil && other != buf {
		return fmt.Errorf("%s is already open in another buffer: edit it with {\"file\": %q}, or close that buffer with :q first", path, path)
	}
	f, err := t.loadVim(abs, path)
	if err != nil {
		return err
	}
	lines, final := textfile.Lines(f.doc.Text)
	delete(t.vim.open, buf.file.abs)
	t.vim.open[abs] = buf
	buf.file, buf.final, buf.stamp = f, final, stampOf(abs)
	buf.eng.Load(lines)
	buf.eng.Name = path
	return nil
}

// text is the buffer's content as it would be saved.
func (b *vimBuffer) text() string {
	return textfile.Join(b.eng.Lines, b.final)
}

// saveVim writes the buffer (force: even over a file changed on disk).
func (t *Tool) saveVim(buf *vimBuffer, force bool) (string, error) {
	if !force && stampOf(buf.file.abs) != buf.stamp {
		return "", errVimChangedOnDisk
	}
	old := ""
	if buf.file.exists {
		old = buf.file.doc.Text
	}
	text := buf.text()
	// The buffer keeps the text as typed; a notebook's markers are
	// numbered against the file it was opened from (buf.file).
	data, settled, err := buf.file.settle(text)
	if err != nil {
		return "", err
	}
	if err := t.commit(buf.file, data, settled); err != nil {
		return "", err
	}
	a, _ := textfile.Lines(old)
	b, _ := textfile.Lines(text)
	t.diag.changed(buf.file.abs, buf.file.shown, diff.Lines(a, b))
	buf.file.exists = true
	buf.file.doc.Text = text
	buf.stamp = stampOf(buf.file.abs)
	buf.eng.MarkSaved()
	return "Wrote " + buf.file.shown, nil
}

// reloadVim replaces the buffer with the file on disk (:e!).
func (t *Tool) reloadVim(buf *vimBuffer) error {
	f, err := t.load(buf.file.abs, buf.file.shown)
	if err != nil {
		return err
	}
	lines, final := textfile.Lines(f.doc.Text)
	buf.file, buf.final, buf.stamp = f, final, stampOf(f.abs)
	buf.eng.Load(lines)
	buf.eng.Status = "Reloaded " + buf.file.shown
	return nil
}
