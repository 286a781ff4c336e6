package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/shell"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["shell"] = command{"an interactive console on the bash tool's persistent shell (state kept between commands)", runShellCmd}
	commandFlagSets["shell"] = func() *pflag.FlagSet { return newShellFlagSet(&shellCLI{}) }
}

// shellCLI holds the flags of `gopi shell`.
type shellCLI struct {
	cwd              string
	timeoutMs        int
	noSnapshot, help bool
}

// newShellFlagSet declares gopi shell's flags on c.
func newShellFlagSet(c *shellCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("shell", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVarP(&c.cwd, "cwd", "C", "", "run the commands in `DIR` (default: the current directory)")
	cliflags.NonNegIntVarP(fs, &c.timeoutMs, "timeout", "t", 0, "end a command after `MS` milliseconds (default: no limit)")
	fs.BoolVar(&c.noSnapshot, "no-snapshot", false, "accepted for omp's shell snapshot; gopi's shell reads the profile itself (login shell) instead")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const shellHelp = `Usage: gopi shell [-C DIR] [-t MS]

An interactive console on the persistent shell the bash tool runs commands
in (the shellPath setting, else $SHELL when it is bash or zsh, else bash;
a login shell unless PI_BASH_NO_LOGIN): variables, functions and the
working directory set by one command are there for the next. After a
command its status is shown when it is not 0. Lines come from the
terminal, or from standard input when it is a pipe.

Console commands:
  .help              show this help
  .exit, exit, quit  leave the console (so does end of input)

Flags:
`

// shellConsoleHelp is what .help prints.
const shellConsoleHelp = `Console commands:
  .help              show this help
  .exit, exit, quit  leave the console
Commands run in one persistent shell: variables, functions and cd last.
`

// runShellCmd implements `gopi shell`.
func runShellCmd(ctx context.Context, env *cliEnv, args []string) int {
	var c shellCLI
	fs := newShellFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "shell", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, shellHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "shell", cliflags.Usagef("gopi shell takes no arguments, got %q (type commands at its prompt)", fs.Arg(0)))
	}
	dir := env.cfg.Cwd
	if c.cwd != "" {
		dir = c.cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(env.cfg.Cwd, dir)
		}
	}
	cfg, err := shell.FromConfig(env.cfg.Shell())
	if err != nil {
		return fail(env, "shell", err)
	}
	pool := shell.NewPool(cfg, dir)
	defer pool.Close()
	in := newLineInput(env)
	prompt := func() {
		if env.stdinTerminal {
			fmt.Fprint(env.stdout, "gopi shell> ")
		}
	}
	if env.stdinTerminal {
		fmt.Fprintln(env.stdout, "Type .help for commands.")
	}
	for {
		prompt()
		line, err := in.line(ctx)
		if err != nil {
			if errors.Is(err, errNoAnswer) { // end of input
				if env.stdinTerminal {
					fmt.Fprintln(env.stdout)
				}
				return exitMatch
			}
			if ctx.Err() != nil {
				return exitMatch
			}
			return fail(env, "shell", err)
		}
		line = strings.TrimSpace(line)
		switch line {
		case "":
			continue
		case ".help":
			fmt.Fprint(env.stdout, shellConsoleHelp)
			continue
		case ".exit", "exit", "quit":
			return exitMatch
		}
		out := &lastByteWriter{w: env.stdout}
		res, err := pool.Run(ctx, shell.Request{Command: line, Timeout: time.Duration(c.timeoutMs) * time.Millisecond, Output: out})
		if out.last != 0 && out.last != '\n' {
			fmt.Fprintln(env.stdout)
		}
		switch {
		case err != nil:
			fmt.Fprintf(env.stderr, "Error: %v\n", err)
		case res.TimedOut:
			fmt.Fprintln(env.stderr, "Command timed out.")
		case res.Cancelled:
			fmt.Fprintln(env.stderr, "Command cancelled.")
			return exitMatch
		case res.Exited && res.ExitCode != 0:
			fmt.Fprintf(env.stderr, "Exit code: %d\n", res.ExitCode)
		}
	}
}

// lastByteWriter passes writes on and remembers the last byte written.
type lastByteWriter struct {
	w    io.Writer
	last byte
}

func (l *lastByteWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.last = p[len(p)-1]
	}
	return l.w.Write(p)
}
