package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/internal/tty"
)

// lineInput reads answers line by line from standard input for the
// questions of `gopi login` and `gopi logout`. One goroutine reads; it
// ends at the end of the input (a read from a terminal cannot be
// interrupted, so one that is still waiting ends with the process, which
// exits after the command).
type lineInput struct {
	in       io.Reader
	terminal bool // in is a terminal: hide secrets while they are typed

	once  sync.Once
	lines chan string
	err   error // why lines was closed (io.EOF at the end)
}

func newLineInput(env *cliEnv) *lineInput {
	return &lineInput{in: env.stdin, terminal: env.stdinTerminal}
}

func (l *lineInput) start() {
	l.once.Do(func() {
		l.lines = make(chan string)
		go func() {
			defer close(l.lines)
			sc := bufio.NewScanner(l.in)
			sc.Buffer(make([]byte, 64*1024), 1<<20)
			for sc.Scan() {
				l.lines <- strings.TrimRight(sc.Text(), "\r")
			}
			l.err = sc.Err()
			if l.err == nil {
				l.err = io.EOF
			}
		}()
	})
}

// errNoAnswer is the end of the input before an answer.
var errNoAnswer = errors.New("no answer: standard input ended")

// line waits for the next line, or for ctx to end.
func (l *lineInput) line(ctx context.Context) (string, error) {
	l.start()
	select {
	case s, ok := <-l.lines:
		if !ok {
			if errors.Is(l.err, io.EOF) {
				return "", errNoAnswer
			}
			return "", l.err
		}
		return s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// secret reads a line without echoing it when the input is a terminal.
func (l *lineInput) secret(ctx context.Context) (string, error) {
	if f, ok := l.in.(*os.File); ok && l.terminal {
		if restore, err := tty.EchoOff(f); err == nil {
			defer restore()
		}
	}
	return l.line(ctx)
}
