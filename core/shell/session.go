package shell

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// ErrShellGone is returned by Run on a Session whose shell has exited.
var ErrShellGone = errors.New("the shell has exited")

// startTimeout bounds the shell's start-up (the login profile included).
const startTimeout = 30 * time.Second

// drainWait bounds how long output still in the pipe is read after the
// shell's process group has ended.
const drainWait = 200 * time.Millisecond

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Session is a persistent shell. Its methods are safe for concurrent use;
// commands run one at a time.
type Session struct {
	cfg        Config
	cmd        *exec.Cmd
	stdin      *os.File // commands to the shell
	out        *os.File // the shell's merged output
	tmp        string   // private directory holding the script file
	script     string   // the script file each command is written to
	scriptFile *os.File // script, kept open: rewriting it in place saves an open and a close per command
	magic      string   // starts every trailer

	runMu sync.Mutex // one command at a time

	mu      sync.Mutex
	cur     io.Writer   // output of the running command; nil discards
	trailer chan string // trailers, for the running command
	pwd     string      // the shell's directory after the last command
	handed  int64       // output bytes handed on (to cur or discarded), so that tests can wait for output written between commands

	exited     chan struct{} // closed when the shell process has exited
	exitCode   int           // its status, once exited
	readerDone chan struct{} // closed when the output reader stops
	closeOnce  sync.Once
}

// Start starts a persistent shell in dir and waits until it is ready
// (its profile read). ctx bounds only the start.
func Start(ctx context.Context, cfg Config, dir string) (*Session, error) {
	tmp, err := childproc.MkdirTemp("shell") // removed by Close, or after a crash by the next gopi
	if err != nil {
		return nil, fmt.Errorf("start shell: %w", err)
	}
	nonce := make([]byte, 12)
	_, _ = rand.Read(nonce)
	s := &Session{
		cfg: cfg, tmp: tmp, script: filepath.Join(tmp, "command"),
		magic:      "gopi-" + hex.EncodeToString(nonce),
		trailer:    make(chan string, 1),
		exited:     make(chan struct{}),
		readerDone: make(chan struct{}),
		pwd:        dir,
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("start shell: %w", err)
	}
	growPipe(outR)
	inR, inW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("start shell: %w", err)
	}
	cmd := exec.Command(cfg.Path, cfg.args("-s")...)
	cmd.Dir, cmd.Env = dir, cfg.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, outW
	cmd.ExtraFiles = []*os.File{outW} // fd 3: where trailers (and command output) go
	childproc.Prepare(cmd)            // a group of its own, guarded
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		outR.Close()
		inW.Close()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("start shell %s: %w", cfg.Path, err)
	}
	if err := cfg.owner.started(cmd.Process.Pid); err != nil {
		_ = cmd.Wait()
		outR.Close()
		inW.Close()
		os.RemoveAll(tmp)
		return nil, err
	}
	s.cmd, s.stdin, s.out = cmd, inW, outR
	go s.wait()
	go s.read()

	// The profile may reset variables: set the non-interactive ones again,
	// then wait for the shell to answer.
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	res, err := s.run(sctx, Request{Command: strings.TrimSuffix(cfg.preamble(), "; ")})
	switch {
	case err != nil:
	case res.ShellExited:
		err = fmt.Errorf("the shell exited during start-up with status %d", res.ExitCode)
	case !res.Exited:
		err = errors.New("the shell did not become ready in time")
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("start shell %s: %w", cfg.Path, err)
	}
	return s, nil
}

// wait reaps the shell and records its status.
func (s *Session) wait() {
	err := s.cmd.Wait()
	code, _ := exitStatus(err, s.cmd)
	s.mu.Lock()
	s.exitCode = code
	s.mu.Unlock()
	close(s.exited)
}

// read copies the shell's output to the running command until the pipe
// closes, taking the trailers out.
func (s *Session) read() {
	defer close(s.readerDone)
	sc := trailerScanner{magic: []byte("\x00" + s.magic + ";")}
	out := func(p []byte) {
		s.mu.Lock()
		if s.cur != nil {
			_, _ = s.cur.Write(p)
		}
		s.handed += int64(len(p))
		s.mu.Unlock()
	}
	done := func(t string) {
		select {
		case s.trailer <- t:
		default: // nobody waits (a command that was given up on)
		}
	}
	// After the shell exits, the deadline its waiters set is renewed by
	// drainPipe itself, so output still in the pipe is not lost when this
	// goroutine runs late.
	drainPipe(s.out, s.exited, func(p []byte) { sc.feed(p, out, done) })
	if rest := sc.flush(); len(rest) > 0 {
		out(rest)
	}
}

// Exited reports whether the shell is gone.
func (s *Session) Exited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// Dir returns the shell's working directory after the last command.
func (s *Session) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pwd
}

// Run runs one command and waits for it. A timeout or ctx ending kills
// the shell with the command (see the package doc). The error is non-nil
// only when the command could not be run at all.
func (s *Session) Run(ctx context.Context, req Request) (Result, error) {
	for k := range req.Env {
		if !envName().MatchString(k) {
			return Result{}, fmt.Errorf("invalid environment variable name %q", k)
		}
	}
	if req.Command == "" {
		req.Command = ":"
	} else {
		req.Command = s.cfg.withPrefix(req.Command)
	}
	return s.run(ctx, req)
}

func (s *Session) run(ctx context.Context, req Request) (Result, error) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.Exited() {
		return Result{ShellExited: true}, ErrShellGone
	}
	if err := s.writeScript(req.Command); err != nil {
		return Result{}, fmt.Errorf("write the command for the shell: %w", err)
	}
	select { // a trailer left by an earlier, abandoned command
	case <-s.trailer:
	default:
	}
	s.mu.Lock()
	s.cur = discard(req.Output)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cur = nil
		s.mu.Unlock()
	}()

	var timeout <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	if _, err := io.WriteString(s.stdin, s.wrapper(req)); err != nil {
		return s.finishExited(Result{}), nil
	}
	select {
	case t := <-s.trailer:
		code, pwd, _ := strings.Cut(t, ";")
		n, err := strconv.Atoi(code)
		res := Result{ExitCode: n, Exited: err == nil, Dir: pwd}
		s.mu.Lock()
		s.pwd = pwd
		s.mu.Unlock()
		return res, nil
	case <-s.exited:
		return s.finishExited(Result{}), nil
	case <-ctx.Done():
		s.end()
		return s.finishExited(Result{Cancelled: true}), nil
	case <-timeout:
		s.end()
		return s.finishExited(Result{TimedOut: true}), nil
	}
}

// writeScript replaces the script file's contents with command. The file
// stays open between commands; the shell reads it by name when it sources
// it, after this returns.
func (s *Session) writeScript(command string) error {
	if s.scriptFile == nil {
		f, err := os.OpenFile(s.script, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		s.scriptFile = f
	}
	data := make([]byte, 0, len(command)+1)
	data = append(append(data, command...), '\n')
	if _, err := s.scriptFile.WriteAt(data, 0); err != nil {
		return err
	}
	return s.scriptFile.Truncate(int64(len(data)))
}

// finishExited completes a result for a shell that is gone: the rest of
// its output is read and its exit status reported (unless the command was
// cancelled or timed out).
func (s *Session) finishExited(res Result) Result {
	<-s.exited
	killGroup(s.cmd.Process.Pid) // what the shell left behind
	_ = s.out.SetReadDeadline(time.Now().Add(drainWait))
	<-s.readerDone
	res.ShellExited = true
	if !res.Cancelled && !res.TimedOut {
		s.mu.Lock()
		res.ExitCode, res.Exited = s.exitCode, true
		s.mu.Unlock()
	}
	return res
}

// end ends the shell's process group (SIGTERM, grace, SIGKILL).
func (s *Session) end() { endGroup(s.cmd.Process.Pid, s.cfg.grace()) }

// wrapper returns the line that makes the shell run the script file for
// req and print the trailer. Every command of the line is a builtin
// called through Config.builtinWord, so that aliases and functions the
// user's commands defined (a printf or cd of their own) cannot take the
// protocol over. errexit and nounset are switched off after each command:
// left on, they would make the shell exit at a later command's first
// failure or unset variable, losing its state.
func (s *Session) wrapper(req Request) string {
	bi := s.cfg.builtinWord()
	var b strings.Builder
	if req.Dir != "" {
		b.WriteString("__gopi_d=$PWD; ")
	}
	b.WriteString("{ ")
	names := envAssignments(req.Env)
	for _, kv := range names {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, `if %[3]stest -n "${%[1]s+x}"; then __gopi_o_%[1]s=$%[1]s; else %[3]sunset __gopi_o_%[1]s; fi; %[3]sexport %[1]s=%[2]s; `, k, Quote(v), bi)
	}
	if req.Dir != "" {
		b.WriteString(bi)
		b.WriteString("cd -- ")
		b.WriteString(Quote(req.Dir))
		b.WriteString(" && ")
	}
	b.WriteString(bi)
	b.WriteString(". ")
	b.WriteString(Quote(s.script))
	b.WriteString("; } </dev/null >&3 2>&3 3>&-; __gopi_ec=$?; ")
	b.WriteString(bi)
	b.WriteString("set +eu; ")
	for _, kv := range names {
		k, _, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, `if %[2]stest -n "${__gopi_o_%[1]s+x}"; then %[1]s=$__gopi_o_%[1]s; %[2]sunset __gopi_o_%[1]s; else %[2]sunset %[1]s; fi; `, k, bi)
	}
	if req.Dir != "" {
		fmt.Fprintf(&b, `%scd -- "$__gopi_d" 2>/dev/null; `, bi)
	}
	fmt.Fprintf(&b, `%sprintf '\0%%s;%%d;%%s\0' %s "$__gopi_ec" "$PWD" >&3`+"\n", bi, s.magic)
	return b.String()
}

// Close ends the shell and everything it started, and removes its files.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		// An idle shell leaves at the end of its input; a busy one is ended.
		s.stdin.Close()
		select {
		case <-s.exited:
		case <-time.After(100 * time.Millisecond):
		}
		s.end() // the shell if still there, and what it left running
		s.cfg.owner.ended(s.cmd.Process.Pid)
		<-s.exited
		_ = s.out.SetReadDeadline(time.Now().Add(drainWait))
		<-s.readerDone
		s.out.Close()
		s.runMu.Lock()
		if s.scriptFile != nil {
			s.scriptFile.Close()
		}
		s.runMu.Unlock()
		os.RemoveAll(s.tmp)
	})
	return nil
}
