package jscell

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// FuzzCompileCell: whatever code the model sends, choosing the cell's
// mode and wording its syntax error end without a panic, the error says
// "SyntaxError" once, and a thrown error's text keeps only cell frames.
func FuzzCompileCell(f *testing.F) {
	for _, s := range []string{
		"const a = 1; return a", "if (x) {\n  return await y(\n", "return foo(", "'await'\nmsg",
		"function f(){\nreturn 41\n}\nf()+1", "null.x", "await 1; null.y", "\n\n\n)", "`${",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		cc, err := compileCell(code)
		if err != nil {
			var syn *cellSyntaxError
			if errors.As(err, &syn) && strings.Count(syn.msg, "SyntaxError") != 1 {
				t.Fatalf("%q: %s", code, syn.msg)
			}
			return
		}
		if len(code) > 200 || strings.Contains(code, "while") || strings.Contains(code, "for") {
			return // running arbitrary code could loop for ever
		}
		rt := goja.New()
		rt.SetMaxCallStackSize(maxCallDepth)
		_, runErr := rt.RunProgram(cc.prog)
		if runErr != nil {
			text := cc.errorText(runErr)
			for _, l := range strings.Split(text, "\n")[1:] {
				if t := strings.TrimSpace(l); strings.HasPrefix(t, "at ") && !strings.Contains(t, cellName+":") {
					panic("a frame outside the cell: " + text)
				}
			}
		}
	})
}
