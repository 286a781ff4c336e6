package jscell

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"time"

	"github.com/dop251/goja"
)

// Memory bounds of a cell. goja has no heap limit of its own, so a cell
// is watched from outside: the process's Go heap is sampled while the
// cell runs, and the cell is interrupted once the heap has grown by more
// than MemoryLimit since it started. The check runs between JavaScript
// instructions, so one native operation that allocates a lot at once
// finishes first; the helpers that build a string or array of a given
// size (repeat, padStart, padEnd, fill) refuse sizes above MaxLength
// before they allocate.
const (
	MemoryLimit = 256 << 20 // bytes the Go heap may grow by during one cell
	MaxLength   = 32 << 20  // characters (elements) repeat, padStart, padEnd and fill may produce
	memoryTick  = 5 * time.Millisecond
)

// errMemory interrupts a cell past MemoryLimit.
var errMemory = errors.New("memory")

// memoryText is what a cell stopped for its memory says.
func memoryText(limit uint64) string {
	return fmt.Sprintf("The cell was stopped: it made gopi's memory grow by more than %d MiB (the JavaScript runtime's limit per cell). Its globals were reset; work on the data in smaller pieces, or use a Python cell.", limit>>20)
}

// memoryLimit is the runtime's limit per cell.
func (r *Runtime) memoryLimit() uint64 {
	if r.opts.MemoryLimit > 0 {
		return r.opts.MemoryLimit
	}
	return MemoryLimit
}

// heapBytes is the Go heap's size now (live objects and garbage not yet
// swept), read without stopping the world.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// watchMemory interrupts rt with errMemory once the heap has grown by
// more than limit; the returned function stops the watch and returns
// when it has.
func watchMemory(rt *goja.Runtime, limit uint64) (stop func()) {
	base := heapBytes()
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(memoryTick)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if heapBytes() > base+limit {
					rt.Interrupt(errMemory)
					return
				}
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}
