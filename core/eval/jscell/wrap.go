package jscell

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// cellName is the file name a cell's stack frames carry.
const cellName = "cell"

// asyncPrefix opens the async function a body runs in, on the cell's
// first line.
const asyncPrefix = "(async () => {"

var (
	topDecl = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(const|let)(\s)`)
	})
	topBinding = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=`)
	})
	topFunc = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(async\s+)?function(\s*\*?\s*)([A-Za-z_$][\w$]*)\s*\(`)
	})
	topClass = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^class\s+([A-Za-z_$][\w$]*)\b`)
	})
)

// compileCell compiles a cell. Code that parses as a script runs as one
// (declarations at the start of a line made globals), so the value of
// its last expression is shown. Code that parses only as the body of an
// async function (a top-level return or await, at any depth of blocks
// or indentation) runs as one, its top-level declarations made globals
// and its returned value shown. Code that parses as neither fails with
// the script's syntax error.
func compileCell(code string) (compiled, error) {
	c := compiled{lines: strings.Count(code, "\n") + 1}
	prog, err := goja.Compile(cellName, topDecl().ReplaceAllString(code, "var$2"), false)
	if err == nil {
		c.prog = prog
		return c, nil
	}
	var syn *goja.CompilerSyntaxError
	if !errors.As(err, &syn) {
		return c, err
	}
	if async, aerr := goja.Compile(cellName, asyncBody(code), false); aerr == nil {
		c.prog, c.async = async, true
		return c, nil
	} else if strings.Contains(syn.Message, "Illegal return statement") {
		err = aerr // the cell is a function body: its own error says what is wrong
	}
	return c, c.syntaxError(err)
}

// compiled is a compiled cell and what maps its positions back to the
// cell's code.
type compiled struct {
	prog  *goja.Program
	async bool // wrapped as an async function body (asyncPrefix on line 1)
	lines int  // the cell's lines; later ones are the wrapper's
}

// asyncBody wraps code as the body of an async function that is called,
// keeping the cell's line numbers.
func asyncBody(code string) string {
	code = topBinding().ReplaceAllString(code, "globalThis.$1 =")
	code = topFunc().ReplaceAllString(code, "globalThis.$3 = ${1}function$2$3(")
	code = topClass().ReplaceAllString(code, "globalThis.$1 = class $1")
	return asyncPrefix + code + "\n})()"
}

// cellSyntaxError is a cell that does not parse.
type cellSyntaxError struct{ msg string }

func (e *cellSyntaxError) Error() string { return e.msg }

// syntaxError words a compile error once: "SyntaxError: Line 2:5 …",
// a position past the cell's end (the wrapper's) as its end.
func (c compiled) syntaxError(err error) error {
	var syn *goja.CompilerSyntaxError
	if !errors.As(err, &syn) {
		return err
	}
	msg := strings.TrimPrefix(syn.Message, cellName+": ")
	if m := linePos().FindStringSubmatch(msg); m != nil {
		if line, _ := strconv.Atoi(m[1]); line > c.lines {
			msg = fmt.Sprintf("Line %d: unexpected end of the cell (an unclosed bracket, string or call?)", c.lines)
		} else if line == 1 && c.async {
			col, _ := strconv.Atoi(m[2])
			msg = fmt.Sprintf("Line 1:%d%s", max(col-len(asyncPrefix), 1), msg[len(m[0]):])
		}
	}
	return &cellSyntaxError{msg: "SyntaxError: " + msg}
}

var (
	linePos = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Line (\d+):(\d+)`)
	})
	framePos = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\(?` + cellName + `:(\d+):(\d+)\(\d+\)\)?$`)
	})
)

// errorText is what a failed cell shows: the error's first line and the
// stack frames in the cell's own code, at the cell's lines and columns.
// Frames of the runtime (Go functions, the prelude, the async wrapper)
// are left out.
func (c compiled) errorText(err error) string {
	var text string
	var ex *goja.Exception
	var so *goja.StackOverflowError
	switch {
	case errors.As(err, &so):
		return fmt.Sprintf("RangeError: Maximum call stack size exceeded (%d nested calls; runaway recursion?)", maxCallDepth)
	case errors.As(err, &ex):
		text = ex.String()
	default:
		text = err.Error()
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	out := []string{strings.TrimPrefix(lines[0], "GoError: ")}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "at ") {
			out = append(out, l)
			continue
		}
		m := framePos().FindStringSubmatchIndex(t)
		if m == nil {
			continue // a Go function or the prelude
		}
		line, _ := strconv.Atoi(t[m[2]:m[3]])
		col, _ := strconv.Atoi(t[m[4]:m[5]])
		if line > c.lines {
			continue // the wrapper
		}
		if line == 1 && c.async {
			col = max(col-len(asyncPrefix), 1)
		}
		pos := fmt.Sprintf("%s:%d:%d", cellName, line, col)
		if t[m[0]] == '(' {
			pos = "(" + pos + ")"
		}
		out = append(out, "    "+t[:m[0]]+pos)
	}
	return strings.Join(out, "\n")
}
