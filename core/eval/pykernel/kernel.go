package pykernel

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/tailbuf"
)

// Texts about the kernel itself, for Result.Notes and the output.
const (
	noteKilled = "The Python kernel did not stop at the interrupt and was killed; the next Python cell starts a new kernel, without the variables and imports of earlier cells."
	noteDied   = "The Python kernel had ended (%s); this cell ran in a new kernel, without the variables and imports of earlier cells."
)

// maxOutputFrame bounds the bytes one output frame may carry (the runner
// sends at most 64 KiB); a larger claim ends the kernel.
const maxOutputFrame = 1 << 20

// frame is one NDJSON object from the runner.
type frame struct {
	raw            []byte                     // stdout, stderr: the output
	Type           string                     `json:"type"`
	ID             string                     `json:"id"`
	Bytes          int                        `json:"bytes"` // stdout, stderr: raw bytes that follow the line
	Bundle         map[string]json.RawMessage `json:"bundle"`
	Ename          string                     `json:"ename"`
	Evalue         string                     `json:"evalue"`
	Traceback      []string                   `json:"traceback"`
	Status         string                     `json:"status"`
	Cancelled      bool                       `json:"cancelled"`
	StdinRequested bool                       `json:"stdinRequested"`
}

// kernel is one runner process.
type kernel struct {
	cmd      *exec.Cmd
	tree     *childproc.Tree
	stdin    io.WriteCloser
	frames   chan frame    // closed when the runner's stdout ends
	exited   chan struct{} // closed once the process is reaped
	quit     chan struct{} // closed when the kernel is being stopped: frames nobody reads are dropped
	quitOnce sync.Once
	stderr   *tailbuf.Buffer
	grace    time.Duration // how long an interrupted cell may take to stop

	mu      sync.Mutex // guards the fields below
	waitErr error
	nextID  int
	dead    string // why the kernel is gone; "" while it runs
}

// startKernel starts a runner in cwd with env.
func startKernel(python, runner, cwd string, env []string, grace time.Duration) (*kernel, error) {
	cmd := exec.Command(python, "-u", runner)
	cmd.Dir = cwd
	cmd.Env = append(env, "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8")
	k := &kernel{cmd: cmd, tree: childproc.NewTree(), frames: make(chan frame, 64), exited: make(chan struct{}), quit: make(chan struct{}),
		stderr: tailbuf.New(8 << 10), grace: grace}
	k.tree.Prepare(cmd)
	cmd.Stderr = k.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", python, err)
	}
	k.tree.Started(cmd)
	k.stdin = stdin
	go k.read(stdout)
	return k, nil
}

// read turns the runner's stdout into frames until it ends, then reaps
// the process.
func (k *kernel) read(stdout io.Reader) {
	defer close(k.exited)
	readFrames(stdout, func(f frame) {
		select {
		case k.frames <- f:
		case <-k.quit:
		}
	})
	close(k.frames)
	err := k.cmd.Wait()
	k.mu.Lock()
	k.waitErr = err
	k.mu.Unlock()
}

// maxFrameLine bounds one frame line (a display with a large picture is
// the longest the runner sends).
const maxFrameLine = 32 << 20

// readFrames parses the runner's stream into frames for emit until it
// ends or stops making sense: a line longer than maxFrameLine, an output
// frame claiming more than maxOutputFrame bytes. Lines that are not
// JSON objects are skipped.
func readFrames(r io.Reader, emit func(frame)) {
	br := bufio.NewReaderSize(r, 256<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			if len(line) > maxFrameLine {
				return
			}
			continue
		}
		if len(line) > 0 {
			var f frame
			if json.Unmarshal(line, &f) == nil {
				if f.Bytes > maxOutputFrame {
					return
				}
				if f.Bytes > 0 {
					f.raw = make([]byte, f.Bytes)
					if _, err := io.ReadFull(br, f.raw); err != nil {
						return
					}
				}
				emit(f)
			}
		}
		if err != nil {
			return
		}
		line = line[:0]
		if cap(line) > 1<<20 {
			line = nil // do not keep a large picture's buffer
		}
	}
}

// exitReason describes how the runner ended, once it has.
func (k *kernel) exitReason() string {
	<-k.exited
	k.mu.Lock()
	err := k.waitErr
	k.mu.Unlock()
	reason := "exit status 0"
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		reason = ee.String() // "exit status 3", "signal: segmentation fault"
	} else if err != nil {
		reason = err.Error()
	}
	if tail := strings.TrimSpace(k.stderr.String()); tail != "" {
		if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
		reason += ": " + tail
	}
	return reason
}

// isDead reports why the kernel is gone, or "".
func (k *kernel) isDead() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.dead
}

func (k *kernel) setDead(why string) {
	k.mu.Lock()
	if k.dead == "" {
		k.dead = why
	}
	k.mu.Unlock()
}

// stop ends the runner and every process its cells started.
func (k *kernel) stop() {
	k.setDead("stopped")
	k.quitOnce.Do(func() { close(k.quit) })
	_ = k.stdin.Close()
	k.tree.End()
	select {
	case <-k.exited:
	case <-time.After(5 * time.Second): // End waited for the kill already; do not hang a close on it
	}
}

// run runs one cell. Text goes to req.Output as it comes; the result
// holds the displays and how the cell ended.
func (k *kernel) run(ctx context.Context, req cell.Request) cell.Result {
	k.mu.Lock()
	k.nextID++
	id := strconv.Itoa(k.nextID)
	k.mu.Unlock()
	var res cell.Result
	line, _ := json.Marshal(map[string]string{"id": id, "code": req.Code})
	if _, err := k.stdin.Write(append(line, '\n')); err != nil {
		return k.died(req, res)
	}
	timeout := time.NewTimer(req.Timeout)
	defer timeout.Stop()
	var killAt <-chan time.Time
	interrupted := false
	interrupt := func() {
		if interrupted {
			return
		}
		interrupted = true
		_ = k.cmd.Process.Signal(syscall.SIGINT)
		killAt = time.After(k.grace)
	}
	done := ctx.Done()
	for {
		select {
		case f, ok := <-k.frames:
			if !ok {
				res.Cancelled = interrupted
				return k.died(req, res)
			}
			if k.handle(f, id, req, &res) {
				return res
			}
		case <-timeout.C:
			res.TimedOut, res.Cancelled = true, true
			interrupt()
		case <-done:
			done = nil
			res.Cancelled = true
			interrupt()
		case <-killAt:
			k.setDead("killed after an ignored interrupt")
			k.stop()
			res.ExitCode = 1
			res.Notes = append(res.Notes, noteKilled)
			return res
		}
	}
}

// died finishes a cell whose kernel ended under it.
func (k *kernel) died(req cell.Request, res cell.Result) cell.Result {
	reason := k.exitReason()
	k.setDead(reason)
	fmt.Fprintf(req.Output, "\nThe Python kernel ended while running this cell (%s).\n", reason)
	res.ExitCode = 1
	return res
}

// handle applies one frame of cell id to res; true when the cell is done.
func (k *kernel) handle(f frame, id string, req cell.Request, res *cell.Result) bool {
	switch f.Type {
	case "stdout", "stderr":
		_, _ = req.Output.Write(f.raw)
	case "display", "result":
		text, rich := displays(f.Bundle)
		if text != "" {
			_, _ = io.WriteString(req.Output, text)
		}
		res.Displays = append(res.Displays, rich...)
	case "error":
		if f.Ename == "KeyboardInterrupt" && res.Cancelled {
			return false // the interruption we sent: the timeout line says it
		}
		_, _ = io.WriteString(req.Output, strings.Join(f.Traceback, ""))
	case "done":
		if f.ID != id {
			return false
		}
		if f.Status != "ok" {
			res.ExitCode = 1
		}
		res.StdinRequested = f.StdinRequested
		return true
	}
	return false
}
