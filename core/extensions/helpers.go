package extensions

import (
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// esbuild prints its helper functions (__defProp, __export, __toESM,
// __require, …) at the top of every bundle: the same text in each bundle
// that needs the same helpers, and about half of what goja compiles for a
// small extension. The block is compiled once per process instead, run
// once per engine, and each bundle takes its helpers from it: the
// helpers are plain functions without state of their own, so the
// extensions of an engine can share them. Line numbers in the bundle stay
// where they were (the block is replaced by as many lines). A bundle
// whose first lines are not the expected helper block (another esbuild,
// say) compiles whole, as before.

// bundleHead is how a bundle starts (buildOptions: an IIFE assigned to
// bundleGlobal).
const bundleHead = "var " + bundleGlobal + " = (() => {\n"

// helperSet is one distinct helper block: compiled once per process, its
// index into helperSets.list is what bundles ask the engine for.
type helperSet struct {
	src   string // the block, as a function returning the helpers
	once  sync.Once
	prog  *goja.Program
	err   error
	index int
}

var helperSets struct {
	mu    sync.Mutex
	bySrc map[string]*helperSet
	list  []*helperSet
}

// shareHelpers returns code with its helper block replaced by a line that
// takes the helpers from the engine (__gopiHelpers), or code unchanged
// when the block is not recognised.
func shareHelpers(code string) string {
	if !strings.HasPrefix(code, bundleHead) {
		return code
	}
	body := code[len(bundleHead):]
	end := strings.Index(body, "\n\n")
	if end <= 0 || !strings.HasPrefix(body[end:], "\n\n  // ") {
		return code // the helpers end where the first module's path comment starts
	}
	block := body[:end+1]
	var names []string
	for _, line := range strings.SplitAfter(block, "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "  var __"):
			name, _, ok := strings.Cut(line[len("  var "):], " = ")
			if !ok || !isIdent(name) {
				return code
			}
			names = append(names, name)
		case strings.HasPrefix(line, "    "), strings.HasPrefix(line, "  }"), strings.HasPrefix(line, "  )"):
			// inside a helper
		default:
			return code // not a helper: leave the bundle as it is
		}
	}
	if len(names) == 0 {
		return code
	}
	list := strings.Join(names, ", ")
	set := helperSetFor("(function () {\n" + block + "return { " + list + " };\n})()")
	if set.compile() != nil {
		return code
	}
	take := "  var { " + list + " } = __gopiHelpers(" + strconv.Itoa(set.index) + ");"
	return bundleHead + take + strings.Repeat("\n", strings.Count(block, "\n")-1) + body[end:]
}

// isIdent reports whether s is a plain identifier (letters, digits, _ and $).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// helperSetFor returns the set of src, registering it the first time.
func helperSetFor(src string) *helperSet {
	helperSets.mu.Lock()
	defer helperSets.mu.Unlock()
	if s := helperSets.bySrc[src]; s != nil {
		return s
	}
	if helperSets.bySrc == nil {
		helperSets.bySrc = map[string]*helperSet{}
	}
	s := &helperSet{src: src, index: len(helperSets.list)}
	helperSets.bySrc[src] = s
	helperSets.list = append(helperSets.list, s)
	return s
}

// compile compiles the set once (on the goroutine compiling the first
// bundle that uses it, off the engine).
func (s *helperSet) compile() error {
	s.once.Do(func() { s.prog, s.err = goja.Compile("gopi:esbuild-helpers", s.src, false) })
	return s.err
}

// helpers is __gopiHelpers: the helpers of set i in this engine, made the
// first time a bundle asks for them.
func (r *Runtime) helpers(rt *goja.Runtime, i int) goja.Value {
	if v := r.helperVals[i]; v != nil {
		return v
	}
	helperSets.mu.Lock()
	var s *helperSet
	if i >= 0 && i < len(helperSets.list) {
		s = helperSets.list[i]
	}
	helperSets.mu.Unlock()
	if s == nil {
		panic(rt.NewTypeError("no esbuild helper set " + strconv.Itoa(i)))
	}
	if err := s.compile(); err != nil {
		panic(rt.NewGoError(err))
	}
	v, err := rt.RunProgram(s.prog)
	if err != nil {
		panic(err)
	}
	if r.helperVals == nil {
		r.helperVals = map[int]goja.Value{}
	}
	r.helperVals[i] = v
	return v
}
