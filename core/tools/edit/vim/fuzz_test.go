package vim

import (
	"strings"
	"testing"
)

// FuzzExec runs arbitrary key sequences (and insert text) on a small
// buffer: the engine never panics, keeps at least one line, and keeps the
// cursor on the buffer.
func FuzzExec(f *testing.F) {
	for _, s := range []string{"3Go", "ggdGi", "dd", ":%s/a/b/g<CR>", ":2,3d<CR>", "ciw", `ci"`, "d}", "yyP", "2J", "u<C-r>",
		"/x<CR>n", "f(ci(", "ZZ", ":g/a/d<CR>", "xp~rX", "wdbcw", "%", "d%", ":1m$<CR>", "ia<BS><BS><C-w>",
		"Vjd", "viwU", "v$>", "vjoc", "Vjjy", "vllrx", "vip", "V<Esc>", "vjJ", "gUiw", "3guu", "g~G", "gJ", "dd..", "x3.", "Ax<Esc>j.", "ciwy<Esc>w.",
		"lRxy<BS><BS>z<CR>q<BS><C-w><C-u><Esc>", "3GHdMyL", "zzztz<CR>zbz-z.zozq", "5|f(;,t ;d,", "3>>>ip<G>j.",
		"vjy<Esc>gvd", "g*g#wdgedg_cgE", "dipyapPcap", "VjgJvegUv$g~", "A<C-o>0X<C-u><C-w>", ":2<BS>3d<CR>:x<Esc>",
		":e x<CR>", ":a x\\ny<CR>:2i z<CR>", ":2;+1d<CR>", ":g|a|<CR>:global!/x/delete<CR>", ":sort! i<CR>", "3o", "2i",
		":1,2yank<CR>:copy $<CR>:move 0<CR>:join!<CR>", "ZZ", ":up<CR>:xit<CR>", ":%s/a", "/x<BS>", "?a\tb"} {
		f.Add(s, "text\nmore")
	}
	f.Fuzz(func(t *testing.T, kbd, insert string) {
		e := New(strings.Split("alpha (beta) \"gamma\"\n\n\tdelta {x}\nomega a", "\n"), Hooks{})
		keys, err := ParseKeys([]string{kbd})
		if err != nil {
			return
		}
		_ = e.Exec(keys)
		if e.Mode() == Insert {
			_ = e.InsertText(insert, true)
		}
		if len(e.Lines) == 0 || e.Line < 0 || e.Line >= len(e.Lines) || e.Col < 0 || e.Col > len([]rune(e.Lines[e.Line])) {
			t.Fatalf("state after %q: %d lines, cursor %d:%d", kbd, len(e.Lines), e.Line, e.Col)
		}
		_ = e.Render(View{File: "f", Lines: DefaultViewLines})
	})
}
