package vim

import (
	"strings"
	"testing"
)

// run executes kbd entries (and insert text, leaving INSERT mode after it)
// on text and returns the buffer.
func run(t *testing.T, text string, kbd []string, insert string) (*Engine, error) {
	t.Helper()
	e := New(strings.Split(text, "\n"), Hooks{})
	keys, err := ParseKeys(kbd)
	if err != nil {
		return e, err
	}
	if err := e.Exec(keys); err != nil {
		return e, err
	}
	if insert != "" {
		if err := e.InsertText(insert, true); err != nil {
			return e, err
		}
	}
	return e, nil
}

func TestEdits(t *testing.T) {
	const src = "one\ntwo\nthree\nfour\nfive"
	for _, c := range []struct {
		name   string
		text   string
		kbd    []string
		insert string
		want   string
	}{
		{"open below line 3", src, []string{"3Go"}, "new", "one\ntwo\nthree\nnew\nfour\nfive"},
		{"open above line 3", src, []string{"3GO"}, "new", "one\ntwo\nnew\nthree\nfour\nfive"},
		{"change line", src, []string{"5Gcc"}, "FIVE", "one\ntwo\nthree\nfour\nFIVE"},
		{"replace whole file", src, []string{"ggdGi"}, "a\nb", "a\nb"},
		{"delete lines with count", src, []string{"2G2dd"}, "", "one\nfour\nfive"},
		{"ex delete range", src, []string{":2,4d<CR>"}, "", "one\nfive"},
		{"ex delete relative", src, []string{"2G:.,+1d<CR>"}, "", "one\nfour\nfive"},
		{"ex delete all", src, []string{":%d<CR>"}, "", ""},
		{"substitute all", "a a\nb a", []string{":%s/a/x/g<CR>"}, "", "x x\nb x"},
		{"substitute first, groups", "key=val", []string{`:s/\(\w\+\)=\(\w\+\)/\2=\1/<CR>`}, "", "val=key"},
		{"bare parens are literal", "f(x)", []string{`:s/f(x)/g(x)/<CR>`}, "", "g(x)"},
		{"global delete", "keep\ndrop 1\nkeep\ndrop 2", []string{":g/drop/d<CR>"}, "", "keep\nkeep"},
		{"inverse global", "keep\ndrop 1\nkeep", []string{":v/keep/d<CR>"}, "", "keep\nkeep"},
		{"dw and x", "foo bar baz", []string{"wdwx"}, "", "foo az"},
		{"cw keeps the space", "foo bar", []string{"cw"}, "qux", "qux bar"},
		{"D and A", "foo bar", []string{"wD", "A"}, "end", "foo end"},
		{"search then change word", "alpha\nbeta gamma", []string{"/gam<CR>ciw"}, "delta", "alpha\nbeta delta"},
		{"change inside parens", "f(a, b)", []string{"f(ci("}, "x", "f(x)"},
		{"change inside quotes", `say "hi" now`, []string{`ci"`}, "bye", `say "bye" now`},
		{"yank and put", "a\nb", []string{"yyjp"}, "", "a\nb\na"},
		{"join", "a\n  b", []string{"J"}, "", "a b"},
		{"undo", src, []string{"dd", "dd", "u"}, "", "two\nthree\nfour\nfive"},
		{"undo and redo", src, []string{"dd", "u", "<C-r>"}, "", "two\nthree\nfour\nfive"},
		{"replace char", "abc", []string{"lrX"}, "", "aXc"},
		{"dollar and i", "abc", []string{"$i"}, "Z", "abZc"},
		{"move lines", src, []string{":1m$<CR>"}, "", "two\nthree\nfour\nfive\none"},
		{"copy lines", src, []string{":1t0<CR>"}, "", "one\none\ntwo\nthree\nfour\nfive"},
		{"sort", "c\na\nb", []string{":sort<CR>"}, "", "a\nb\nc"},
		{"insert keys", "x", []string{"ahi<Esc>"}, "", "xhi"},
		{"backspace in insert", "x", []string{"Aab<BS>c<Esc>"}, "", "xac"},
		{"delete to end with dG", src, []string{"3GdG"}, "", "one\ntwo"},
		{"paragraph motion", "a\nb\n\nc", []string{"d}"}, "", "\nc"},
		{"dw on a line's last word", "foo bar\nnext", []string{"wdw"}, "", "foo \nnext"},
		{"daw takes the blanks after", "one two three", []string{"wdaw"}, "", "one three"},
		{"yl yanks one character", "abc", []string{"ylp"}, "", "aabc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := run(t, c.text, c.kbd, c.insert)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if got := strings.Join(e.Lines, "\n"); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		kbd  []string
		want string
	}{
		{[]string{"Q"}, "Unsupported command: Q"},
		{[]string{"<F1>"}, "Unknown special key <F1> in sequence 1"},
		{[]string{"<Esc"}, "Unterminated special key in sequence 1"},
		{[]string{":frob<CR>"}, "Unsupported ex command: frob."},
		{[]string{"/nothere<CR>"}, "Pattern not found: nothere"},
		{[]string{"fz"}, "Character not found: z"},
		{[]string{":q<CR>"}, ""},
		{[]string{"dd", ":q<CR>"}, "Unsaved changes; use :q! to discard"},
		{[]string{":s/a/b<CR>"}, "Pattern not found: a"},
		{[]string{":9,10d<CR>"}, "Line range 9,10 is outside the buffer (2 lines)"},
		{[]string{":g/zz/d<CR>"}, "Pattern not found: zz"},
		{[]string{"gx"}, "Unsupported g command: gx"},
		{[]string{"d"}, "Operator d requires a motion"},
		{[]string{":s/x/y<C-d>"}, "Unsupported key in : command: <C-d>"},
	} {
		_, err := run(t, "one\ntwo", c.kbd, "")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: error %q, want %q", c.kbd, got, c.want)
		}
	}
	e := New([]string{"x"}, Hooks{})
	if err := e.InsertText("y", true); err == nil || err.Error() != "Insert payload requires INSERT mode." {
		t.Fatalf("insert in NORMAL mode: %v", err)
	}
}

func TestRollbackInsert(t *testing.T) {
	e, err := run(t, "a\nb", []string{"Otyped"}, "")
	if err != nil || e.Mode() != Insert {
		t.Fatal(err, e.Mode())
	}
	e.RollbackInsert()
	if got := strings.Join(e.Lines, "\n"); got != "a\nb" || e.Mode() != Normal {
		t.Fatalf("after rollback %q in %v", got, e.Mode())
	}
}

func TestKeyPositions(t *testing.T) {
	keys, err := ParseKeys([]string{"ab", "<Esc>\\rx"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range keys {
		got = append(got, k.Display()+"@"+string(rune('0'+k.Seq))+":"+string(rune('0'+k.Offset)))
	}
	if strings.Join(got, " ") != "a@0:0 b@0:1 <Esc>@1:0 <CR>@1:5 x@1:7" {
		t.Fatal(got)
	}
}

func TestMoreKeys(t *testing.T) {
	for _, c := range []struct{ kbd, want string }{
		{"$<BS>x", "abd\nef"},
		{"J", "abcd ef"},
		{":j!<CR>", "abcdef"},
		{":g!/ab/d<CR>", "abcd"},
		{"wyiwP", "abcd\nefef"},
	} {
		e, err := run(t, "abcd\nef", []string{c.kbd}, "")
		if err != nil {
			t.Fatalf("%s: %v", c.kbd, err)
		}
		if got := strings.Join(e.Lines, "\n"); got != c.want {
			t.Errorf("%s: got %q, want %q", c.kbd, got, c.want)
		}
	}
	if _, err := run(t, "x", []string{":e other.txt<CR>"}, ""); err == nil || err.Error() != "Opening another file is not available" {
		t.Fatalf(":e FILE without the tool: %v", err)
	}
}

// TestReplaceMode: R overwrites, types past the line's end, breaks lines,
// and <BS> <C-w> <C-u> give back what it overwrote.
func TestReplaceMode(t *testing.T) {
	for _, c := range []struct{ text, kbd, insert, want string }{
		{"abcd", "Rxy<Esc>", "", "xycd"},
		{"ab", "lRxyz<Esc>", "", "axyz"},
		{"abcd", "Rxy<BS><BS>z<Esc>", "", "zbcd"},
		{"ab", "lRxyz<BS><BS><Esc>", "", "ax"},
		{"abcd", "Rx<CR>y<BS><BS><Esc>", "", "xbcd"},
		{"foo bar", "wRbaz<C-w><Esc>", "", "foo bar"},
		{"abcdef", "2lRxyz<C-u>Q<Esc>", "", "abQdef"},
		{"abcd", "R", "XY", "XYcd"},
		{"abcd", "R<BS><BS>x<Esc>", "", "xbcd"},
		{"ab\ncd", "Rxyz<Esc>j0.", "", "xyz\nxyz"},
	} {
		e, err := run(t, c.text, []string{c.kbd}, c.insert)
		if err != nil {
			t.Fatalf("%s: %v", c.kbd, err)
		}
		if got := strings.Join(e.Lines, "\n"); got != c.want {
			t.Errorf("%q on %q: got %q, want %q", c.kbd, c.text, got, c.want)
		}
	}
}

// TestInsertAndCommandLineKeys: <C-o> runs one NORMAL command from
// INSERT mode; <BS> edits and <Esc> cancels a : or / line.
func TestInsertAndCommandLineKeys(t *testing.T) {
	for _, c := range []struct{ text, kbd, want string }{
		{"abc", "A<C-o>0X<Esc>", "Xabc"},
		{"a\nb", "i<C-o>jY<Esc>", "a\nYb"},
		{"a\nb", "ix<C-o>ddy<Esc>", "yb"},
		{"a b", "ix<C-o>:s/b/B/<CR>y<Esc>", "xya B"},
		{"a b", "ix<C-o>/b<CR>y<Esc>", "xa yb"},
		{"ab", "ix<C-o>vly<Esc>", "xlyab"}, // no selection: the keys after v are typed
		{"abc", ":s/b/X<BS>Y/<CR>", "aYc"},
		{"abc", ":s/b/X/<Esc>x", "bc"},
		{"abc abd", "/abc<BS>d<CR>x", "abc bd"},
		{"a\nb", "jA<C-w><C-w>x<Esc>", "ax"},
	} {
		e, err := run(t, c.text, []string{c.kbd}, "")
		if err != nil {
			t.Fatalf("%s: %v", c.kbd, err)
		}
		if got := strings.Join(e.Lines, "\n"); got != c.want {
			t.Errorf("%q on %q: got %q, want %q", c.kbd, c.text, got, c.want)
		}
	}
}

// TestPendingCommandLine: a : line left unfinished waits in COMMAND mode
// and the next keys finish it.
func TestPendingCommandLine(t *testing.T) {
	e, err := run(t, "one two", []string{":s/o/0"}, "")
	if err != nil || e.Mode() != Command || e.Pending() != ":s/o/0" {
		t.Fatalf("%v %v %q", err, e.Mode(), e.Pending())
	}
	if !strings.Contains(e.Render(View{File: "f", Lines: DefaultViewLines}), "f [ ] COMMAND L1:1 (1 lines)\n[CURSOR] Line 1, Column 1 (of 1 lines)\nPending: :s/o/0\n") {
		t.Fatal(e.Render(View{File: "f", Lines: DefaultViewLines}))
	}
	keys, _ := ParseKeys([]string{"/g<CR>"})
	if err := e.Exec(keys); err != nil || e.Mode() != Normal || e.Lines[0] != "0ne tw0" {
		t.Fatalf("%v %v %q", err, e.Mode(), e.Lines)
	}
}

// TestCloseStatus: ZZ and :x write only a modified buffer and say what
// they did.
func TestCloseStatus(t *testing.T) {
	for _, c := range []struct{ kbd, status string }{
		{"ZZ", "Closed f"}, {":x<CR>", "Closed f"}, {"xZZ", "Wrote and closed f"}, {":wq<CR>", "Wrote and closed f"}, {"ZQ", "Closed f"},
	} {
		writes := 0
		e := New([]string{"abc"}, Hooks{Write: func(e *Engine, force bool) (string, error) {
			writes++
			e.MarkSaved()
			return "Wrote f", nil
		}})
		e.Name = "f"
		keys, _ := ParseKeys([]string{c.kbd})
		if err := e.Exec(keys); err != nil || !e.Closed || e.Status != c.status || (writes == 1) != strings.HasPrefix(c.status, "Wrote") {
			t.Errorf("%s: %v closed %v status %q, %d writes", c.kbd, err, e.Closed, e.Status, writes)
		}
	}
}

// TestRepeatIsNotRecorded: '.' repeats the last change, never itself.
func TestRepeatIsNotRecorded(t *testing.T) {
	e, err := run(t, "a\nb\nc\nd", []string{"dd..."}, "")
	if err != nil || strings.Join(e.Lines, "\n") != "" {
		t.Fatalf("%q %v", e.Lines, err)
	}
}

// TestKeptAsVim checks what gopi does in the scenarios where it edits as
// vim does and omp does not (vimNotOmp): the buffer, cursor and status.
func TestKeptAsVim(t *testing.T) {
	para := "one\ntwo\n\nthree\nfour\n\n\nfive"
	for _, c := range []struct {
		name, text string
		kbd        []string
		insert     string
		want       string
		line, col  int
		status     string
	}{
		{"t semicolon", "a,b,c,d,e", []string{"t,;"}, "", "a,b,c,d,e", 0, 2, ""},
		{"semicolon after T", "a,b,c,d,e", []string{"$T,;"}, "", "a,b,c,d,e", 0, 6, ""},
		{"cge", "alpha beta", []string{"wcge"}, "", "alpheta", 0, 4, ""},
		{"yap P", para, []string{"4GyapP"}, "", "one\ntwo\n\nthree\nfour\n\n\nthree\nfour\n\n\nfive", 3, 0, ""},
		{"cip", para, []string{"4Gcip"}, "new", "one\ntwo\n\nnew\n\n\nfive", 3, 2, ""},
		{":yank put", "a\nb\nc", []string{":1,2yank<CR>", "G:put<CR>"}, "", "a\nb\nc\na\nb", 4, 0, "Put 2 lines"},
		{":s n", "a a\nb a\nc", []string{":%s/a/x/gn<CR>"}, "", "a a\nb a\nc", 0, 0, "3 matches on 2 lines"},
		{":s n one", "a", []string{":s/a/x/n<CR>"}, "", "a", 0, 0, "1 match on 1 line"},
		{":s e", "abc", []string{":s/zz/x/e<CR>"}, "", "abc", 0, 0, ""},
		{":s count", "a\na\na\na", []string{":s/a/x/ 2<CR>"}, "", "x\nx\na\na", 0, 0, "2 substitutions"},
		{":s range count", "a\na\na\na", []string{":1,2s/a/x/ 2<CR>"}, "", "a\nx\nx\na", 0, 0, "2 substitutions"},
		{":s &", "a a\na a", []string{":s/a/x/g<CR>", "j:s/a/y/&<CR>"}, "", "x x\ny y", 1, 0, "2 substitutions"},
		{"r CR", "abcd", []string{"lr<CR>"}, "", "a\ncd", 1, 0, ""},
		{"CR", "a\n  b", []string{"<CR>"}, "", "a\n  b", 1, 2, ""},
		{"BS", "abc", []string{"$<BS>"}, "", "abc", 0, 1, ""},
		{"dh", "abc", []string{"ldh"}, "", "bc", 0, 0, ""},
		{"db", "foo bar", []string{"$db"}, "", "foo r", 0, 4, ""},
		{"d0", "foo bar", []string{"$d0"}, "", "r", 0, 0, ""},
		{"dF", "a,b,c", []string{"$dF,"}, "", "a,bc", 0, 3, ""},
		{"3J", "a\nb\nc\nd", []string{"3J"}, "", "a b c\nd", 0, 4, ""},
		{"3p", "ab", []string{"yl3p"}, "", "aaaab", 0, 4, ""},
		{":m lines", "a\nb\nc\nd", []string{":1,2m$<CR>"}, "", "c\nd\na\nb", 3, 0, "Moved 2 lines"},
		{":t lines", "a\nb\nc\nd", []string{":1,2t$<CR>"}, "", "a\nb\nc\nd\na\nb", 5, 0, "Copied 2 lines"},
		{":s empty pattern", "abc abc", []string{"/b<CR>", ":s//X/g<CR>"}, "", "aXc aXc", 0, 1, "2 substitutions"},
		{":s groups", "key=val", []string{`:s/\(\w\+\)=\(\w\+\)/\2=\1/<CR>`}, "", "val=key", 0, 0, "1 substitution"},
		{"~ at end", "ab", []string{"$~"}, "", "aB", 0, 1, ""},
		{"cw on blanks", "a  b", []string{"lcwX<Esc>"}, "", "aXb", 0, 1, ""},
		{"x on empty line", "", []string{"x"}, "", "", 0, 0, ""},
		{"yiw on blanks", "a   b", []string{"lyiwP"}, "", "a      b", 0, 4, ""},
		{"visual gg", "a\nb\nc", []string{"Gvggd"}, "", "", 0, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := New(strings.Split(c.text, "\n"), Hooks{})
			for _, kbd := range c.kbd {
				keys, err := ParseKeys([]string{kbd})
				if err == nil {
					e.Status = ""
					err = e.Exec(keys)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if c.insert != "" {
				if err := e.InsertText(c.insert, true); err != nil {
					t.Fatal(err)
				}
			}
			if got := strings.Join(e.Lines, "\n"); got != c.want || e.Line != c.line || e.Col != c.col || e.Status != c.status {
				t.Fatalf("got %q at %d:%d status %q, want %q at %d:%d status %q", got, e.Line, e.Col, e.Status, c.want, c.line, c.col, c.status)
			}
		})
	}
}

// :w, :wq, :x, :update and :q act on the buffer's own file only: a file
// name, ">>" or a range is refused as omp refuses it, and nothing is
// written (the Write hook is never called).
func TestFileCommandsTakeNoArgument(t *testing.T) {
	for _, c := range []string{"w copy.txt", "w! copy.txt", "wq copy.txt", "x copy.txt", "w >> copy.txt", "write! a.py", "up copy.txt", "%w", "q other"} {
		wrote := false
		e := New([]string{"one", "two"}, Hooks{Write: func(*Engine, bool) (string, error) { wrote = true; return "Wrote", nil }})
		keys, err := ParseKeys([]string{"dd:" + c + "<CR>"})
		if err != nil {
			t.Fatal(err)
		}
		err = e.Exec(keys)
		if want := "Unsupported ex command: " + c + "."; err == nil || err.Error() != want {
			t.Errorf(":%s: error %v, want %q", c, err, want)
		}
		if wrote {
			t.Errorf(":%s wrote the buffer's file", c)
		}
	}
}
