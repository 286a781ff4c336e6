package extensions

import (
	"sync"

	"github.com/dop251/goja"
)

// gopi's own scripts (prelude.js, node.js) are compiled once per process:
// a goja program belongs to no engine, so every runtime of the process
// (a new session's, a subagent's, a reload's) runs the same one.
var ownScripts struct {
	mu    sync.Mutex
	progs map[string]*goja.Program
}

// ownScript returns the compiled program of one of gopi's scripts.
func ownScript(name, src string) (*goja.Program, error) {
	ownScripts.mu.Lock()
	defer ownScripts.mu.Unlock()
	if p := ownScripts.progs[name]; p != nil {
		return p, nil
	}
	p, err := goja.Compile(name, src, false)
	if err != nil {
		return nil, err
	}
	if ownScripts.progs == nil {
		ownScripts.progs = map[string]*goja.Program{}
	}
	ownScripts.progs[name] = p
	return p, nil
}
