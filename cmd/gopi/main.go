// Command gopi is a terminal coding agent with fast native search engines.
//
// This file wires subcommands to their implementations; every engine lives
// in its own package (search/grep, search/glob, search/fuzzy, …) and the
// command only turns flags into options and results into text.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"

	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/tui"
	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/internal/buildinfo"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/internal/signals"
	"github.com/gopi-agent/gopi/internal/tty"
)

// Exit codes shared by every subcommand, as in grep and ripgrep.
const (
	exitMatch   = 0 // something matched / success
	exitNoMatch = 1 // nothing matched
	exitError   = 2 // bad input or a failure
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, env *cliEnv, args []string) int
}

// cliEnv is what a command may touch, injectable for tests.
type cliEnv struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	isTerminal     bool         // stdout is a terminal (color and headings)
	stdinTerminal  bool         // stdin is a terminal (no piped input to read)
	stdinReadable  bool         // stdin is a pipe or a regular file: gopi grep searches it when given no path
	httpClient     *http.Client // provider HTTP client for the agent; nil for the default
	environ        []string     // process environment for the configuration; os.Environ() when nil
	// maxFileArg bounds an @file's text (0: launch.MaxFileArg); tests
	// lower it.
	maxFileArg int64

	cfg *config.Config // loaded by run before the command (nil for version and mockllm)
	// scan is the scan cache of the engine commands (grep, find, ast,
	// read), built with cfg: a value of this one command, with the
	// configuration's policy (the global git excludes file among it).
	scan *fscache.Cache

	// What tests replace: the settings loader (nil: config.Load), the
	// project trust question (nil: tui.AskTrust) and the build facts
	// `gopi version` prints (nil: those linked in, linkStamp).
	loadSettings func(config.LoadOptions) (*config.Config, error)
	askTrust     func(context.Context, tui.TrustQuestion, tui.TrustOptions) (tui.TrustAnswer, error)
	build        *buildinfo.Stamp
	// exe replaces the running binary's path for `gopi update` ("": the
	// real one).
	exe string
	// logins are the sign-in flows of `gopi login` and of token refresh
	// (nil: loginProviders); tests set fakes.
	logins []oauth.Provider
}

// noConfig lists the commands that run without loading the configuration.
var noConfig = map[string]bool{"version": true, "mockllm": true}

var commands = map[string]command{
	"grep":    {"search file contents with a regex (ripgrep conventions)", runGrep},
	"ast":     {"structural search (ast grep) and rewrite (ast edit) with ast-grep patterns", runAST},
	"index":   {"build or refresh the search index of a tree that gopi grep then reads (--status, --delete)", runIndex},
	"find":    {"find paths by glob, or by fuzzy query (fd conventions)", runFind},
	"edit":    {"apply an edit (hashline, replace or apply_patch) as the edit tool does", runEdit},
	"read":    {"print what the read tool returns for PATH[:SELECTOR] (anchored lines, trees)", runRead},
	"tool":    {"call a built-in agent tool (read, write, search, find, …) with JSON arguments", runToolCmd},
	"models":  {"list models (built-in catalog and models.yml) and which have credentials", runModels},
	"login":   {"sign in to a provider (subscription or API key) and store it in agent.db; --status lists logins", runLogin},
	"logout":  {"remove a provider's stored credentials from gopi's agent.db", runLogout},
	"ai":      {"stream one completion from a model (no tools) to check a provider", runAI},
	"acp":     {"serve the Agent Client Protocol on stdin/stdout (gopi as an editor's agent, e.g. Zed)", runACP},
	"mockllm": {"serve a scripted mock LLM (Anthropic, OpenAI, Gemini wire formats) for tests", runMockLLM},
	"ssh":     {"list, add and remove the hosts of the ssh tool (ssh.json)", runSSH},
	"tokens":  {"count tokens exactly as OpenAI's o200k_base / cl100k_base encodings do", runTokens},
	"version": {"print the version", runVersion},
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == childproc.GuardArg {
		// The guard of another gopi process (see childproc.EnableGuard).
		os.Exit(childproc.RunGuard(os.Args[2:]))
	}
	// What gopi starts gets an empty signal mask, whatever gopi inherited,
	// and does not outlive it, however it ends.
	childproc.ResetInheritedSignals()
	childproc.EnableGuard()
	// The first Ctrl-C aborts the run; a second one ends the process (after
	// removing the temporary files of unfinished writes, see internal/signals).
	ctx, stop := signals.InterruptContext()
	defer stop()
	env := &cliEnv{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, isTerminal: tty.IsTerminal(os.Stdout), stdinTerminal: tty.IsTerminal(os.Stdin), stdinReadable: tty.IsReadableInput(os.Stdin)}
	if quietPipeRun(os.Args[1:]) {
		signals.CatchBrokenPipe() // writes to a closed pipe now fail with EPIPE
		env.stdout = quietPipe{os.Stdout}
	}
	stopProfile := startCPUProfile()
	code := run(ctx, env, os.Args[1:])
	stopProfile()
	os.Exit(code)
}

// run dispatches: a first argument naming a command runs it; anything
// else (flags, messages, nothing) goes to the agent. "--" before a message
// makes it a message even when it names a command.
func run(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 && args[0] == "help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, env, []string{"--help"})
			}
		}
		printAgentUsage(env.stdout)
		return exitMatch
	}
	if len(args) == 0 || args[0] == "--" || strings.HasPrefix(args[0], "-") {
		return runAgent(ctx, env, args)
	}
	c, ok := commands[args[0]]
	if !ok {
		return runAgent(ctx, env, args)
	}
	if !noConfig[args[0]] {
		if err := loadConfig(env, args[0]); err != nil {
			return fail(env, args[0], err)
		}
	}
	return c.run(ctx, env, args[1:])
}

// quietPipeRun reports whether a run with args only prints (an engine
// command, or help, usage or version text), so that a reader that goes
// away ends it quietly with status 0 (see quietPipe) instead of SIGPIPE:
// `gopi --help | head -1` as `gopi grep --help | head -1`.
func quietPipeRun(args []string) bool {
	if len(args) == 0 {
		return false // the interactive agent
	}
	if quietPipeCommands[args[0]] || args[0] == "help" {
		return true
	}
	if _, ok := commands[args[0]]; ok {
		// Any command asked for its help. A value that happens to be
		// "--help" only makes a closed pipe end the command quietly.
		for _, a := range args[1:] {
			if a == "--" {
				break
			}
			if a == "-h" || a == "--help" {
				return true
			}
		}
		return false
	}
	// The agent: only its help, version and model list print and exit.
	var f agentFlags
	fs := newAgentFlagSet(&f)
	fs.SetOutput(io.Discard)
	filled, given := fillOptionalValues(args)
	if fs.Parse(filled) != nil {
		return false
	}
	return f.help || f.version || given["--list-models"]
}

// sortedCommands returns the command names in order.
func sortedCommands() []string {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// fail prints an error for a command and returns the error exit code. Usage
// mistakes get a pointer to --help.
func fail(env *cliEnv, cmd string, err error) int {
	msg := err.Error()
	var ue *cliflags.UsageError
	if errors.As(err, &ue) {
		msg += fmt.Sprintf(" (see 'gopi %s --help')", cmd)
	}
	fmt.Fprintf(env.stderr, "gopi %s: %s\n", cmd, strings.TrimSpace(msg))
	return exitError
}
