// Command firstframe measures how long an interactive program takes from
// process start to its first usable frame: it starts the command on a
// pseudo-terminal of a given size, again and again, and times each run
// from just before the process is started (fork and exec included) to
// the moment the terminal output contains a marker text (for gopi, its
// editor's placeholder). The program is then sent its quit keys and, if it
// does not exit within a few seconds, killed.
//
// Usage:
//
//	firstframe [-n RUNS] [-warmup N] [-marker TEXT] [-quit KEYS] [-cols C] [-rows R] [-dir DIR] -- COMMAND ARGS...
//
// KEYS is a Go-quoted string (default "\x04", Ctrl+D). Output: one line
// per measured run, "run N first_frame_ms F", then "summary first_frame
// best B median M" (milliseconds, three decimals). A run that never shows
// the marker within 30 s fails the measurement (exit status 1, with the
// output seen).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/creack/pty"
)

func main() {
	n := flag.Int("n", 20, "measured runs")
	warmup := flag.Int("warmup", 2, "unmeasured runs first")
	marker := flag.String("marker", "essage gopi", "text whose appearance is the first frame (gopi's editor placeholder, whose first letter is drawn under the cursor)")
	quit := flag.String("quit", `"\x04"`, "Go-quoted keys that make the program exit")
	cols := flag.Int("cols", 120, "terminal columns")
	rows := flag.Int("rows", 40, "terminal rows")
	dir := flag.String("dir", "", "working directory")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "firstframe: give the command after --")
		os.Exit(2)
	}
	keys, err := strconv.Unquote(*quit)
	if err != nil {
		fmt.Fprintf(os.Stderr, "firstframe: -quit %s: %v\n", *quit, err)
		os.Exit(2)
	}
	var times []float64
	for i := -*warmup; i < *n; i++ {
		ms, out, err := once(flag.Args(), *dir, []byte(*marker), keys, *cols, *rows)
		if err != nil {
			fmt.Fprintf(os.Stderr, "firstframe: run %d: %v\noutput:\n%q\n", i, err, out)
			os.Exit(1)
		}
		if i >= 0 {
			times = append(times, ms)
			fmt.Printf("run %d first_frame_ms %.3f\n", i, ms)
		}
	}
	slices.Sort(times)
	fmt.Printf("summary first_frame best %.3f median %.3f\n", times[0], times[len(times)/2])
}

// once starts the command on a pty, waits for the marker and ends it.
func once(args []string, dir string, marker []byte, quit string, cols, rows int) (float64, []byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	var mu sync.Mutex
	var out bytes.Buffer
	seen := make(chan time.Time, 1)
	go func() {
		buf := make([]byte, 64<<10)
		found := false
		for {
			k, err := f.Read(buf)
			if k > 0 {
				mu.Lock()
				out.Write(buf[:k])
				if !found && bytes.Contains(out.Bytes(), marker) {
					found = true
					seen <- time.Now()
				}
				mu.Unlock()
				if !found {
					// Answer the terminal queries a TUI sends on start
					// (cursor position, colours) so it does not wait.
					answerQueries(f, buf[:k])
				}
			}
			if err != nil {
				return
			}
		}
	}()
	var at time.Time
	select {
	case at = <-seen:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		mu.Lock()
		defer mu.Unlock()
		return 0, out.Bytes(), fmt.Errorf("the marker %q never appeared", marker)
	}
	f.Write([]byte(quit))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	return float64(at.Sub(start).Microseconds()) / 1000, nil, nil
}

// answerQueries replies to the queries a terminal program may send at
// start-up and wait for, as a modern terminal answers them: the cursor
// position (CSI 6n), the primary device attributes (CSI c), the
// background colour (OSC 11) and DEC private mode reports (CSI ? N $p:
// synchronized output 2026 and grapheme clustering 2027, "not set").
func answerQueries(f *os.File, b []byte) {
	for _, mode := range []string{"2026", "2027"} {
		if bytes.Contains(b, []byte("\x1b[?"+mode+"$p")) {
			f.Write([]byte("\x1b[?" + mode + ";2$y"))
		}
	}
	if bytes.Contains(b, []byte("\x1b[6n")) {
		f.Write([]byte("\x1b[1;1R"))
	}
	if bytes.Contains(b, []byte("\x1b[c")) || bytes.Contains(b, []byte("\x1b[0c")) {
		f.Write([]byte("\x1b[?62;22c"))
	}
	if bytes.Contains(b, []byte("\x1b]11;?")) {
		f.Write([]byte("\x1b]11;rgb:0000/0000/0000\x1b\\"))
	}
}
